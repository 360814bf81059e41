# intended: AGI001
# like: forum thread "invalid action masking in REINFORCE", zeroing illegal actions in the softmax output then renormalising
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self, obs_dim=6, n_actions=5, hidden=32):
        super().__init__()
        self.affine1 = nn.Linear(obs_dim, hidden)
        self.dropout = nn.Dropout(p=0.2)
        self.affine2 = nn.Linear(hidden, n_actions)

    def forward(self, x):
        x = self.dropout(F.relu(self.affine1(x)))
        return F.softmax(self.affine2(x), dim=-1)


class ToyEnv:
    def __init__(self, n_actions=5):
        self.n_actions = n_actions

    def reset(self):
        self.t = 0
        return torch.randn(6)

    def valid_actions(self):
        valid = torch.ones(self.n_actions, dtype=torch.bool)
        valid[self.t % self.n_actions] = False
        return valid

    def step(self, action):
        self.t += 1
        return torch.randn(6), float(action == 1), self.t >= 6


def select_action(policy, state, valid):
    probs = policy(state.unsqueeze(0))
    probs[:, ~valid] = 0.0  # culprit
    probs = probs / probs.sum(-1, keepdim=True)
    m = Categorical(probs)
    action = m.sample()
    return action.item(), m.log_prob(action)


def finish_episode(optimizer, log_probs, rewards, gamma=0.99):
    R, returns = 0.0, []
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    policy_loss = torch.cat([-lp * R for lp, R in zip(log_probs, returns)]).sum()
    optimizer.zero_grad()
    policy_loss.backward()
    optimizer.step()
    return policy_loss.item()


def main():
    torch.manual_seed(0)
    env, policy = ToyEnv(), Policy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    for episode in range(2):
        state, done = env.reset(), False
        log_probs, rewards = [], []
        while not done:
            action, lp = select_action(policy, state, env.valid_actions())
            state, reward, done = env.step(action)
            log_probs.append(lp)
            rewards.append(reward)
        print(episode, finish_episode(optimizer, log_probs, rewards))


if __name__ == "__main__":
    main()
