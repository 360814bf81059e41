# intended: safe
# REINFORCE: discounted returns computed backwards into a preallocated buffer,
# normalised in place; log-probs collected in a list during the episode.
import torch
import torch.nn as nn
from torch.distributions import Categorical


def discounted_returns(rewards, gamma=0.99):
    returns = torch.zeros_like(rewards)
    running = 0.0
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running
        returns[t] = running
    returns -= returns.mean()
    returns /= returns.std() + 1e-8
    return returns


def main():
    torch.manual_seed(0)
    policy = nn.Sequential(nn.Linear(4, 24), nn.ReLU(), nn.Linear(24, 2), nn.Softmax(dim=-1))
    opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    for episode in range(3):
        log_probs, rewards = [], []
        state = torch.randn(4)
        for t in range(8):
            probs = policy(state)
            m = Categorical(probs)
            action = m.sample()
            log_probs.append(m.log_prob(action))
            rewards.append(float(action.item() == (t % 2)))
            state = state * 0.9 + 0.1 * torch.randn(4)
        returns = discounted_returns(torch.tensor(rewards))
        loss = -(torch.stack(log_probs) * returns).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"episode {episode}: return {sum(rewards):.0f} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
