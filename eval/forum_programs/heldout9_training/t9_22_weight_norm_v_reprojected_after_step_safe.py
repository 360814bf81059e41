# source: hand-written weight normalisation (Salimans & Kingma 2016, w = g * v / ||v||) with a "keep v unit-norm" projection
# Trains a weight-normalised MLP and renormalises v in place under no_grad after optimizer.step() (w is invariant to the scale of v).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class WNLinear(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.v = nn.Parameter(torch.randn(out_dim, in_dim) * 0.05)
        self.g = nn.Parameter(torch.ones(out_dim))
        self.b = nn.Parameter(torch.zeros(out_dim))

    def forward(self, x):
        w = self.g[:, None] * self.v / self.v.norm(dim=1, keepdim=True)
        return F.linear(x, w, self.b)

    @torch.no_grad()
    def reproject(self):
        self.v.div_(self.v.norm(dim=1, keepdim=True))


class WNMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([WNLinear(8, 32), WNLinear(32, 32), WNLinear(32, 2)])

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = F.elu(layer(x))
        return self.layers[-1](x)

    def reproject(self):
        for layer in self.layers:
            layer.reproject()


model = WNMLP()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    x = torch.randn(16, 8)
    y = torch.stack([x[:, :4].sum(1), x[:, 4:].prod(1)], dim=1)
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    model.reproject()
    print(step, loss.item())
