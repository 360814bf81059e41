# source: scaler-like helper from fp16 training code (static loss scale, unscale_ grads, inf check) used with gradient accumulation
# Gradient accumulation over micro-batches with a CPU "loss scaler": loss.mul_ in place, grads unscaled and averaged in place.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class StaticLossScaler:
    def __init__(self, scale=1024.0):
        self.scale_value = scale

    def scale(self, loss):
        return loss.mul_(self.scale_value)

    @torch.no_grad()
    def unscale_and_check(self, params, accum_steps):
        finite = True
        for p in params:
            if p.grad is not None:
                p.grad.div_(self.scale_value * accum_steps)
                finite &= bool(torch.isfinite(p.grad).all())
        return finite


model = nn.Sequential(nn.Linear(14, 48), nn.ReLU(), nn.Dropout(0.1), nn.Linear(48, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
scaler = StaticLossScaler()
accum_steps, running = 4, 0.0
data = [(torch.randn(8, 14), torch.randint(0, 4, (8,))) for _ in range(8)]

opt.zero_grad()
for i, (x, y) in enumerate(data):
    loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
    running += loss.item()
    scaler.scale(loss).backward()
    if (i + 1) % accum_steps == 0:
        if scaler.unscale_and_check(model.parameters(), accum_steps):
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
        opt.zero_grad()
        print(i, running / accum_steps)
        running = 0.0
