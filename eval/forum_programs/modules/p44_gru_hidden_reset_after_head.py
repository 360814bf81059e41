# parameter cloned first, but the reset now hits the previous GRU output that head() saved
import torch
import torch.nn as nn


class Policy(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.h0 = nn.Parameter(torch.zeros(2, d))
        self.gru = nn.GRUCell(d, d)
        self.head = nn.Linear(d, 1)

    def forward(self, obs, dones):
        h = self.h0.clone()
        outs = []
        for t in range(obs.size(0)):
            h[dones[t]] = 0.0  # culprit
            h = self.gru(obs[t], h)
            outs.append(self.head(h))
        return torch.stack(outs)


def main():
    torch.manual_seed(0)
    pol = Policy(4)
    obs = torch.randn(3, 2, 4)
    dones = torch.tensor([[False, False], [True, False], [False, True]])
    pol(obs, dones).sum().backward()
    print(pol.h0.grad)


if __name__ == "__main__":
    main()
