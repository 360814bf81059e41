# source: learnable Fourier-feature / NeRF-style positional encoding feeding a coordinate MLP (SIREN / FFN papers)
# proj = coords @ B scaled in place (fine), sin(proj) taken, then proj.add_(pi / 2) reuses the buffer to get cos = sin(proj + pi/2)
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


class LearnableFourierFeatures(nn.Module):
    def __init__(self, in_dim=2, num_freqs=16, sigma=3.0):
        super().__init__()
        self.B = nn.Parameter(torch.randn(in_dim, num_freqs) * sigma)

    def forward(self, coords):
        proj = coords @ self.B
        proj.mul_(2 * math.pi)
        sin_feat = torch.sin(proj)
        proj.add_(math.pi / 2)  # culprit
        cos_feat = torch.sin(proj)
        return torch.cat([sin_feat, cos_feat], dim=-1)


class CoordinateMLP(nn.Module):
    def __init__(self, num_freqs=16, hidden=64, out_dim=3, layers=3):
        super().__init__()
        self.encoding = LearnableFourierFeatures(num_freqs=num_freqs)
        dims = [2 * num_freqs] + [hidden] * layers
        self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.out = nn.Linear(hidden, out_dim)

    def forward(self, coords):
        h = self.encoding(coords)
        for lin in self.hidden:
            h = F.relu(lin(h), inplace=True)
        return torch.sigmoid(self.out(h))


def make_grid(res):
    lin = torch.linspace(0, 1, res)
    yy, xx = torch.meshgrid(lin, lin, indexing="ij")
    return torch.stack([xx, yy], -1).view(-1, 2)


def target_image(coords):
    r = torch.sin(6 * coords[:, :1]) * 0.5 + 0.5
    g = torch.cos(4 * coords[:, 1:]) * 0.5 + 0.5
    b = (coords.sum(-1, keepdim=True) / 2)
    return torch.cat([r, g, b], -1)


if __name__ == "__main__":
    coords = make_grid(16)
    target = target_image(coords)
    model = CoordinateMLP()
    opt = PlainSGD(model.parameters(), lr=0.001)
    loss = F.mse_loss(model(coords), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("psnr", (-10 * torch.log10(loss)).item())
