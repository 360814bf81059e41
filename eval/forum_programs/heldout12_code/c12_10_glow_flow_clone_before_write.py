# source: Glow (openai/glow, rosinality/glow-pytorch) ActNorm + invertible permutation + affine coupling
# Glow-style flow on vectors that clones activations before writing coupling outputs and accumulates log-dets in place.
import math
import torch
import torch.nn as nn


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(1, dim))
        self.logs = nn.Parameter(torch.zeros(1, dim))
        self.register_buffer("inited", torch.zeros(1))

    @torch.no_grad()
    def data_init(self, x):
        self.bias.data.copy_(-x.mean(0, keepdim=True))
        self.logs.data.copy_(-torch.log(x.std(0, keepdim=True) + 1e-6))
        self.inited.fill_(1.0)

    def forward(self, x, logdet):
        if self.inited.item() == 0:
            self.data_init(x)
        logdet += self.logs.sum()
        return (x + self.bias) * torch.exp(self.logs), logdet


class Permute(nn.Module):
    def __init__(self, dim, seed):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.register_buffer("perm", torch.randperm(dim, generator=g))

    def forward(self, x, logdet):
        return x.index_select(1, self.perm), logdet


class Coupling(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.d = dim // 2
        self.nn = nn.Sequential(nn.Linear(self.d, hidden), nn.ReLU(inplace=True),
                                nn.Linear(hidden, hidden), nn.ReLU(inplace=True),
                                nn.Linear(hidden, 2 * (dim - self.d)))
        self.nn[-1].weight.data.mul_(0.01)
        self.nn[-1].bias.data.zero_()

    def forward(self, x, logdet):
        h = self.nn(x[:, : self.d])
        shift, raw = h[:, 0::2], h[:, 1::2]
        scale = torch.sigmoid(raw + 2.0)
        z = x.clone()
        z[:, self.d:] = (x[:, self.d:] + shift) * scale
        logdet += torch.log(scale).sum(1)
        return z, logdet


class Glow(nn.Module):
    def __init__(self, dim=8, hidden=32, steps=3):
        super().__init__()
        self.dim = dim
        self.flows = nn.ModuleList()
        for k in range(steps):
            self.flows.extend([ActNorm(dim), Permute(dim, seed=k), Coupling(dim, hidden)])

    def forward(self, x):
        logdet = torch.zeros(x.shape[0])
        for f in self.flows:
            x, logdet = f(x, logdet)
        prior = -0.5 * (x.pow(2) + math.log(2 * math.pi)).sum(1)
        return prior + logdet


def main():
    torch.manual_seed(0)
    model = Glow()
    opt = torch.optim.Adamax(model.parameters(), lr=1e-3)
    x = torch.randn(16, 8) * torch.linspace(0.5, 2.0, 8)
    nll = -model(x).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    print("nll", nll.item())


if __name__ == "__main__":
    main()
