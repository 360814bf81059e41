# source: BYOL/mean-teacher re-implementation thread: target network built by copying the online net (requires_grad left on), EMA update run before loss.backward()
# the target's second Linear saved its weight (its input requires grad); the in-place EMA update bumps that weight before backward
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self, d_in=10, hidden=32, d_out=8):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, d_out)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def byol_loss(p, z):
    return 2 - 2 * F.cosine_similarity(p, z, dim=-1).mean()


@torch.no_grad()
def update_target(online, target, tau):
    for p_o, p_t in zip(online.parameters(), target.parameters()):
        p_t.mul_(tau).add_(p_o, alpha=1 - tau)  # culprit


def augment(x):
    return x + 0.1 * torch.randn_like(x)


online, target = MLP(), MLP()
target.load_state_dict(online.state_dict())
predictor = nn.Linear(8, 8)
opt = torch.optim.SGD(list(online.parameters()) + list(predictor.parameters()), lr=0.05)

for step in range(3):
    x = torch.randn(6, 10)
    v1, v2 = augment(x), augment(x)
    p1 = predictor(online(v1))
    z2 = target(v2)
    loss = byol_loss(p1, z2)
    opt.zero_grad()
    update_target(online, target, tau=0.99)
    loss.backward()
    opt.step()
    print(step, loss.item())
