# intended: AGI003
# like: forum thread on a RealNVP implementation, affine coupling applied in place to the second half of x.chunk(2, 1)
import math
import torch
import torch.nn as nn


class CouplingLayer(nn.Module):
    def __init__(self, dim, hidden=32, flip=False):
        super().__init__()
        self.flip = flip
        self.s_net = nn.Sequential(nn.Linear(dim // 2, hidden), nn.LeakyReLU(), nn.Linear(hidden, dim // 2), nn.Tanh())
        self.t_net = nn.Sequential(nn.Linear(dim // 2, hidden), nn.LeakyReLU(), nn.Linear(hidden, dim // 2))

    def forward(self, x):
        x_a, x_b = x.chunk(2, dim=1)
        if self.flip:
            x_a, x_b = x_b, x_a
        log_s = self.s_net(x_a)
        t = self.t_net(x_a)
        x_b.mul_(torch.exp(log_s)).add_(t)  # culprit
        return x, log_s.sum(dim=1)


class InvertibleLinear(nn.Module):
    def __init__(self, dim):
        super().__init__()
        w, _ = torch.linalg.qr(torch.randn(dim, dim))
        self.weight = nn.Parameter(w)

    def forward(self, x):
        return x @ self.weight, torch.slogdet(self.weight)[1].expand(x.shape[0])


class RealNVP(nn.Module):
    def __init__(self, dim=4, n_layers=4):
        super().__init__()
        self.mix = InvertibleLinear(dim)
        self.layers = nn.ModuleList(CouplingLayer(dim, flip=(i % 2 == 1)) for i in range(n_layers))

    def forward(self, x):
        x, log_det = self.mix(x)
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return x, log_det


def log_prob(model, x):
    z, log_det = model(x)
    log_pz = -0.5 * (z ** 2).sum(1) - 0.5 * z.shape[1] * math.log(2 * math.pi)
    return log_pz + log_det


def main():
    torch.manual_seed(0)
    model = RealNVP()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = torch.randn(64, 4) @ torch.tensor([[1.0, 0.5, 0, 0], [0, 1.0, 0, 0], [0, 0, 1.0, 0.3], [0, 0, 0, 1.0]])
    for epoch in range(2):
        for batch in data.split(16):
            loss = -log_prob(model, batch).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
