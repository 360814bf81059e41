# source: RealNVP / Glow affine coupling layer (normalizing flows)
# description: transformed half is computed out-of-place and re-joined with torch.cat; runs cleanly
import torch
import torch.nn as nn


class AffineCoupling(nn.Module):
    def __init__(self, dim, hidden=16):
        super().__init__()
        self.d = dim // 2
        self.net = nn.Sequential(nn.Linear(self.d, hidden), nn.ReLU(), nn.Linear(hidden, 2 * (dim - self.d)))

    def forward(self, x):
        x_a, x_b = x[:, : self.d], x[:, self.d :]
        s, t = self.net(x_a).split(x_b.shape[1], dim=1)
        s = torch.tanh(s)
        y_b = x_b * torch.exp(s) + t
        return torch.cat([x_a, y_b], dim=1), s.sum(dim=1)


class Flow(nn.Module):
    def __init__(self, dim, n_layers=3):
        super().__init__()
        self.pre = nn.Linear(dim, dim)
        self.layers = nn.ModuleList([AffineCoupling(dim) for _ in range(n_layers)])

    def forward(self, x):
        z = self.pre(x)
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            z, ld = layer(z)
            log_det += ld
            z = z.flip(1)
        return z, log_det


if __name__ == "__main__":
    torch.manual_seed(0)
    flow = Flow(6)
    x = torch.randn(4, 6)
    z, log_det = flow(x)
    loss = (0.5 * z.pow(2).sum(1) - log_det).mean()
    loss.backward()
