# source: PPO implementation in the CleanRL single-file style (GAE, minibatches, advantage normalisation)
# GAE advantages built in place in a no_grad block and normalised in place per minibatch; values detached before the advantage
import torch
import torch.nn as nn

torch.manual_seed(0)

OBS_DIM, N_ACTIONS, N_STEPS, N_ENVS = 5, 4, 8, 4


class Agent(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(OBS_DIM, hidden), nn.Tanh(), nn.Linear(hidden, N_ACTIONS))
        self.critic = nn.Sequential(nn.Linear(OBS_DIM, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def get_value(self, obs):
        return self.critic(obs).squeeze(-1)

    def get_action_and_value(self, obs, action=None):
        dist = torch.distributions.Categorical(logits=self.actor(obs))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.get_value(obs)


def rollout(agent):
    obs = torch.zeros(N_STEPS, N_ENVS, OBS_DIM)
    actions = torch.zeros(N_STEPS, N_ENVS, dtype=torch.long)
    logprobs = torch.zeros(N_STEPS, N_ENVS)
    rewards = torch.zeros(N_STEPS, N_ENVS)
    dones = torch.zeros(N_STEPS, N_ENVS)
    values = torch.zeros(N_STEPS, N_ENVS)
    next_obs = torch.randn(N_ENVS, OBS_DIM)
    for t in range(N_STEPS):
        obs[t] = next_obs
        with torch.no_grad():
            a, lp, _, v = agent.get_action_and_value(next_obs)
        actions[t], logprobs[t], values[t] = a, lp, v
        rewards[t] = (a == 1).float()
        dones[t] = (torch.rand(N_ENVS) < 0.1).float()
        next_obs = torch.randn(N_ENVS, OBS_DIM)
    return obs, actions, logprobs, rewards, dones, values, next_obs


def compute_gae(agent, rewards, dones, values, next_obs, gamma=0.99, lam=0.95):
    with torch.no_grad():
        next_value = agent.get_value(next_obs)
        advantages = torch.zeros_like(rewards)
        lastgaelam = torch.zeros(N_ENVS)
        for t in reversed(range(N_STEPS)):
            nextv = next_value if t == N_STEPS - 1 else values[t + 1]
            nonterminal = 1.0 - dones[t]
            delta = rewards[t] + gamma * nextv * nonterminal - values[t]
            lastgaelam = delta + gamma * lam * nonterminal * lastgaelam
            advantages[t] = lastgaelam
        returns = advantages + values
    return advantages, returns


def update(agent, opt, data, epochs=2, mb_size=16, clip=0.2):
    obs, actions, logprobs, rewards, dones, values, next_obs = data
    advantages, returns = compute_gae(agent, rewards, dones, values, next_obs)
    b_obs, b_act = obs.reshape(-1, OBS_DIM), actions.reshape(-1)
    b_lp, b_adv, b_ret = logprobs.reshape(-1), advantages.reshape(-1), returns.reshape(-1)
    for epoch in range(epochs):
        perm = torch.randperm(b_obs.shape[0])
        for start in range(0, b_obs.shape[0], mb_size):
            mb = perm[start:start + mb_size]
            _, newlp, ent, newv = agent.get_action_and_value(b_obs[mb], b_act[mb])
            ratio = (newlp - b_lp[mb]).exp()
            mb_adv = b_adv[mb]
            mb_adv -= mb_adv.mean()
            mb_adv /= mb_adv.std() + 1e-8
            pg_loss = torch.max(-mb_adv * ratio, -mb_adv * ratio.clamp(1 - clip, 1 + clip)).mean()
            v_loss = 0.5 * (newv - b_ret[mb]).pow(2).mean()
            loss = pg_loss + 0.5 * v_loss - 0.01 * ent.mean()
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            opt.step()
        print(f"epoch {epoch}: loss={loss.item():.4f}")


def main():
    agent = Agent()
    opt = torch.optim.Adam(agent.parameters(), lr=2.5e-4, eps=1e-5)
    for it in range(2):
        update(agent, opt, rollout(agent))


if __name__ == "__main__":
    main()
