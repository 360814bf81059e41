# source: RealNVP / nflows AffineCouplingTransform on tabular data with ActNorm
# Stack of ActNorm + affine coupling layers that write the transformed half back into the input tensor.
import math
import torch
import torch.nn as nn


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.log_scale = nn.Parameter(torch.zeros(dim))
        self.register_buffer("initialized", torch.tensor(0, dtype=torch.uint8))

    def forward(self, x):
        if not self.initialized:
            with torch.no_grad():
                self.loc.copy_(-x.mean(0))
                self.log_scale.copy_(-torch.log(x.std(0) + 1e-6))
                self.initialized.fill_(1)
        y = (x + self.loc) * torch.exp(self.log_scale)
        return y, self.log_scale.sum().expand(x.shape[0])


class AffineCoupling(nn.Module):
    def __init__(self, dim, hidden, flip):
        super().__init__()
        self.d = dim // 2
        self.flip = flip
        self.net = nn.Sequential(nn.Linear(self.d, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 2 * (dim - self.d)))
        nn.init.normal_(self.net[-1].weight, std=1e-2)
        nn.init.zeros_(self.net[-1].bias)

    def forward(self, x):
        if self.flip:
            x = x.flip(1)
        x1, x2 = x[:, : self.d], x[:, self.d:]
        st = self.net(x1)
        s, t = st[:, : x2.shape[1]], st[:, x2.shape[1]:]
        s = torch.tanh(s)
        y2 = x2 * torch.exp(s) + t
        x[:, self.d:] = y2  # culprit
        return x, s.sum(1)


class RealNVP(nn.Module):
    def __init__(self, dim=6, hidden=32, n_layers=4):
        super().__init__()
        self.dim = dim
        layers = []
        for i in range(n_layers):
            layers += [ActNorm(dim), AffineCoupling(dim, hidden, flip=bool(i % 2))]
        self.layers = nn.ModuleList(layers)

    def log_prob(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        log_pz = -0.5 * (x ** 2).sum(1) - 0.5 * self.dim * math.log(2 * math.pi)
        return log_pz + log_det


def main():
    torch.manual_seed(0)
    flow = RealNVP()
    opt = torch.optim.Adam(flow.parameters(), lr=1e-3)
    data = torch.randn(32, 6) @ torch.randn(6, 6) + 1.0
    loss = -flow.log_prob(data).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("nll", loss.item())


if __name__ == "__main__":
    main()
