# source: BYOL (Grill et al. 2020) online/target networks; target deep-copied with requires_grad off, EMA done before backward
# BYOL step where the frozen target net runs with grad mode on and is EMA-updated in place between the forward and backward.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def mlp(in_dim, hidden, out_dim):
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Linear(hidden, out_dim))


class BYOL(nn.Module):
    def __init__(self, in_dim=20, proj=16, tau=0.99):
        super().__init__()
        self.online = mlp(in_dim, 64, proj)
        self.predictor = mlp(proj, 32, proj)
        self.target = copy.deepcopy(self.online)
        for p in self.target.parameters():
            p.requires_grad_(False)
        self.tau = tau

    def ema_update(self):
        for po, pt in zip(self.online.parameters(), self.target.parameters()):
            pt.mul_(self.tau).add_(po.detach(), alpha=1 - self.tau)

    def loss(self, v1, v2):
        p1, p2 = self.predictor(self.online(v1)), self.predictor(self.online(v2))
        z1, z2 = self.target(v1), self.target(v2)
        def regression(p, z):
            return 2 - 2 * F.cosine_similarity(p, z.detach(), dim=-1).mean()
        return regression(p1, z2) + regression(p2, z1)


byol = BYOL()
opt = torch.optim.Adam([p for p in byol.parameters() if p.requires_grad], lr=1e-3)
for step in range(4):
    x = torch.randn(16, 20)
    v1, v2 = x + 0.2 * torch.randn_like(x), x * (1 + 0.1 * torch.randn_like(x))
    loss = byol.loss(v1, v2)
    byol.ema_update()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
