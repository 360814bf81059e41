# source: BYOL / MoCo momentum (EMA) target encoder update
# description: target branch runs with grad and is not detached; the EMA update then rewrites target weights that its Linear layers saved
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(din, dh, dout):
    return nn.Sequential(nn.Linear(din, dh), nn.BatchNorm1d(dh), nn.ReLU(inplace=True), nn.Linear(dh, dout))


class BYOL(nn.Module):
    def __init__(self, dim=8, proj=4, momentum=0.99):
        super().__init__()
        self.online = nn.Sequential(nn.Linear(6, dim), nn.ReLU(), mlp(dim, 16, proj))
        self.predictor = mlp(proj, 16, proj)
        self.target = copy.deepcopy(self.online)
        self.m = momentum

    @torch.no_grad()
    def momentum_update(self):
        for p_t, p_o in zip(self.target.parameters(), self.online.parameters()):
            p_t.mul_(self.m).add_(p_o.detach(), alpha=1 - self.m)  # culprit

    def forward(self, v1, v2):
        p1 = self.predictor(self.online(v1))
        z2 = self.target(v2)
        return 2 - 2 * F.cosine_similarity(p1, z2, dim=-1).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BYOL()
    x = torch.randn(4, 6)
    v1, v2 = x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x)
    loss = model(v1, v2)
    model.momentum_update()
    loss.backward()
