# intended: safe
# top-k filtering of the policy logits written in place before softmax (REINFORCE-style loss)
import torch
from torch import nn


def top_k_filter(logits, k):
    kth = logits.topk(k, dim=-1).values[..., -1:]
    logits[logits < kth] = float("-inf")
    return logits


class Policy(nn.Module):
    def __init__(self, d, n_actions, k):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 16), nn.Tanh(), nn.Linear(16, n_actions))
        self.k = k

    def forward(self, obs):
        return torch.softmax(top_k_filter(self.net(obs), self.k), dim=-1)


def main():
    torch.manual_seed(0)
    pi = Policy(4, 6, 3)
    obs = torch.randn(5, 4)
    reward = torch.randn(5, 6)
    probs = pi(obs)
    loss = -(probs * reward).sum(-1).mean()
    loss.backward()
    print(probs[0].tolist())


if __name__ == "__main__":
    main()
