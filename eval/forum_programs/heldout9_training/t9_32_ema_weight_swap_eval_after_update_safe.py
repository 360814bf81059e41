# source: "evaluate with EMA weights" helpers (swap shadow params in, evaluate, swap back), called after the optimizer/EMA update
# EMA shadow weights are swapped into the model for a validation pass once the step and EMA update for that batch are done.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class EMA:
    def __init__(self, model, decay=0.99):
        self.decay = decay
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}

    @torch.no_grad()
    def update(self, model):
        for n, p in model.named_parameters():
            self.shadow[n].lerp_(p, 1 - self.decay)

    @torch.no_grad()
    def swap(self, model):
        for n, p in model.named_parameters():
            tmp = p.detach().clone()
            p.copy_(self.shadow[n])
            self.shadow[n].copy_(tmp)


@torch.no_grad()
def evaluate(model, ema, x, y):
    ema.swap(model)
    acc = (model(x).argmax(-1) == y).float().mean().item()
    ema.swap(model)
    return acc


model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
ema = EMA(model)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x_val, y_val = torch.randn(32, 10), torch.randint(0, 3, (32,))
for step in range(4):
    x, y = torch.randn(16, 10), torch.randint(0, 3, (16,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema.update(model)
    if step % 2 == 0:
        print("val acc (ema)", evaluate(model, ema, x_val, y_val), "train loss", loss.item())
