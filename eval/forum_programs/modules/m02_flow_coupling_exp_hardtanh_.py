# intended: AGI001
# RealNVP-ish affine coupling: bound the scale with F.hardtanh_ right after exp() to avoid blow-ups
import torch
import torch.nn as nn
import torch.nn.functional as F


class AffineCoupling(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.half = d // 2
        self.net = nn.Sequential(nn.Linear(self.half, 32), nn.Tanh(), nn.Linear(32, 2 * self.half))

    def forward(self, x):
        xa, xb = x[:, : self.half], x[:, self.half :]
        h = self.net(xa)
        log_s, t = h[:, : self.half], h[:, self.half :]
        s = torch.exp(log_s)
        F.hardtanh_(s, 1e-3, 10.0)  # culprit
        yb = xb * s + t
        logdet = torch.log(s).sum(1)
        return torch.cat([xa, yb], 1), logdet


def main():
    torch.manual_seed(0)
    flow = AffineCoupling(6)
    x = torch.randn(5, 6)
    z, logdet = flow(x)
    nll = (0.5 * z.pow(2).sum(1) - logdet).mean()
    nll.backward()
    print(nll.item())


if __name__ == "__main__":
    main()
