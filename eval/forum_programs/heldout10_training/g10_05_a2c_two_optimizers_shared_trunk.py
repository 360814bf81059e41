# source: actor-critic (A2C) tutorial on a toy bandit-like env, with separate actor and critic optimizers
# actor_loss.backward(retain_graph=True); actor_opt.step() updates the shared trunk; then critic_loss.backward() through the same graph
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

OBS_DIM, N_ACTIONS, HIDDEN = 6, 3, 32


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(OBS_DIM, HIDDEN), nn.ReLU(),
            nn.Linear(HIDDEN, HIDDEN), nn.ReLU(),
        )
        self.pi = nn.Linear(HIDDEN, N_ACTIONS)
        self.v = nn.Linear(HIDDEN, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return self.pi(h), self.v(h).squeeze(-1)


class ToyEnv:
    def __init__(self, n_envs):
        self.n = n_envs

    def reset(self):
        return torch.randn(self.n, OBS_DIM)

    def step(self, actions):
        reward = (actions == 1).float() - 0.1 * actions.float()
        return torch.randn(self.n, OBS_DIM), reward


def train(updates=3, n_envs=8, gamma=0.99):
    env = ToyEnv(n_envs)
    model = ActorCritic()
    actor_params = list(model.trunk.parameters()) + list(model.pi.parameters())
    critic_params = list(model.trunk.parameters()) + list(model.v.parameters())
    actor_opt = torch.optim.Adam(actor_params, lr=7e-4)
    critic_opt = torch.optim.Adam(critic_params, lr=1e-3)
    obs = env.reset()
    for u in range(updates):
        logits, value = model(obs)
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        next_obs, reward = env.step(action)
        with torch.no_grad():
            _, next_value = model(next_obs)
        target = reward + gamma * next_value
        advantage = target - value

        actor_loss = -(dist.log_prob(action) * advantage.detach()).mean() - 0.01 * dist.entropy().mean()
        critic_loss = F.mse_loss(value, target)

        actor_opt.zero_grad()
        actor_loss.backward(retain_graph=True)
        actor_opt.step()  # culprit

        critic_opt.zero_grad()
        critic_loss.backward()
        critic_opt.step()
        obs = next_obs
        print(f"update {u}: actor={actor_loss.item():.4f} critic={critic_loss.item():.4f}")


if __name__ == "__main__":
    train()
