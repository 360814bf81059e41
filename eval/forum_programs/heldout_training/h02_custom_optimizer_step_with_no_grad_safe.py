# intended: safe
# Hand-written Adam as an Optimizer subclass, step() decorated with @torch.no_grad()
# (that is what the built-in optimizers do).
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyAdam(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-2, betas=(0.9, 0.999), eps=1e-8):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            b1, b2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                st = self.state[p]
                if not st:
                    st["t"] = 0
                    st["m"] = torch.zeros_like(p)
                    st["v"] = torch.zeros_like(p)
                st["t"] += 1
                st["m"].mul_(b1).add_(p.grad, alpha=1 - b1)
                st["v"].mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
                bc1 = 1 - b1 ** st["t"]
                bc2 = 1 - b2 ** st["t"]
                denom = (st["v"] / bc2).sqrt_().add_(group["eps"])
                p.addcdiv_(st["m"], denom, value=-group["lr"] / bc1)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 12), nn.GELU(), nn.Linear(12, 3))
opt = TinyAdam(model.parameters())
x, y = torch.randn(10, 6), torch.randint(0, 3, (10,))
for step in range(3):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4), math.isfinite(loss.item()))
