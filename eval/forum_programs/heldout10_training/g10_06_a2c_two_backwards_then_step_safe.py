# source: actor-critic tutorial with n-step returns, one optimizer over the shared network
# returns filled in place into a preallocated tensor, actor and critic losses backward separately (retain_graph) and a single step after both
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

OBS_DIM, N_ACTIONS, HIDDEN, N_STEPS = 6, 3, 32, 5


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


def compute_returns(rewards, masks, bootstrap, gamma):
    returns = torch.zeros_like(rewards)
    running = bootstrap
    for t in reversed(range(rewards.shape[0])):
        running = rewards[t] + gamma * running * masks[t]
        returns[t] = running
    return returns


def train(updates=3, n_envs=4, gamma=0.99):
    model = ActorCritic()
    opt = torch.optim.RMSprop(model.parameters(), lr=7e-4, alpha=0.99, eps=1e-5)
    obs = torch.randn(n_envs, OBS_DIM)
    for u in range(updates):
        log_probs, values, entropies = [], [], []
        rewards = torch.zeros(N_STEPS, n_envs)
        masks = torch.ones(N_STEPS, n_envs)
        for t in range(N_STEPS):
            logits, value = model(obs)
            dist = torch.distributions.Categorical(logits=logits)
            action = dist.sample()
            log_probs.append(dist.log_prob(action))
            entropies.append(dist.entropy())
            values.append(value)
            rewards[t] = (action == 0).float()
            masks[t].masked_fill_(torch.rand(n_envs) < 0.1, 0.0)
            obs = torch.randn(n_envs, OBS_DIM)
        with torch.no_grad():
            _, bootstrap = model(obs)
        returns = compute_returns(rewards, masks, bootstrap, gamma)

        values = torch.stack(values)
        advantages = returns - values
        actor_loss = -(torch.stack(log_probs) * advantages.detach()).mean() - 0.01 * torch.stack(entropies).mean()
        critic_loss = 0.5 * advantages.pow(2).mean()

        opt.zero_grad()
        actor_loss.backward(retain_graph=True)
        critic_loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        opt.step()
        print(f"update {u}: actor={actor_loss.item():.4f} critic={critic_loss.item():.4f}")


if __name__ == "__main__":
    train()
