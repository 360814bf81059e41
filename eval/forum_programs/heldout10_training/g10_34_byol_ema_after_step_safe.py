# source: BYOL re-implementation on toy vectors (target network frozen, EMA after the optimizer step)
# symmetric loss with target under no_grad, opt.step(), then EMA of target params in place (tp.mul_().add_()) in no_grad
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IN_DIM, REPR, PROJ = 16, 32, 8


def mlp(i, h, o):
    return nn.Sequential(nn.Linear(i, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Linear(h, o))


class BYOL(nn.Module):
    def __init__(self, tau=0.99):
        super().__init__()
        self.tau = tau
        self.online = nn.Sequential(nn.Linear(IN_DIM, REPR), nn.ReLU(), mlp(REPR, 64, PROJ))
        self.predictor = mlp(PROJ, 64, PROJ)
        self.target = copy.deepcopy(self.online)
        self.target.requires_grad_(False)

    @torch.no_grad()
    def update_target(self):
        for tp, op in zip(self.target.parameters(), self.online.parameters()):
            tp.mul_(self.tau).add_(op, alpha=1 - self.tau)
        for tb, ob in zip(self.target.buffers(), self.online.buffers()):
            tb.copy_(ob)

    def loss(self, v1, v2):
        p1 = self.predictor(self.online(v1))
        p2 = self.predictor(self.online(v2))
        with torch.no_grad():
            z1, z2 = self.target(v1), self.target(v2)
        return regression_loss(p1, z2) + regression_loss(p2, z1)


def regression_loss(p, z):
    p = F.normalize(p, dim=-1)
    z = F.normalize(z, dim=-1)
    return (2 - 2 * (p * z).sum(dim=-1)).mean()


def augment(x):
    return x * (1 + 0.1 * torch.randn_like(x)) + 0.05 * torch.randn_like(x)


def train(steps=3, batch=16):
    model = BYOL()
    params = list(model.online.parameters()) + list(model.predictor.parameters())
    opt = torch.optim.Adam(params, lr=3e-4)
    for step in range(steps):
        x = torch.randn(batch, IN_DIM)
        loss = model.loss(augment(x), augment(x))
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.update_target()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
