# source: hand-rolled dynamic loss scaler (apex/amp-style logic re-implemented for CPU training)
# cross-entropy loss scaled in place (loss *= scale), grads unscaled in place, overflow check, scale grown/shrunk
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DynamicLossScaler:
    def __init__(self, init_scale=2.0 ** 12, growth_interval=2):
        self.scale = init_scale
        self.growth_interval = growth_interval
        self.good_steps = 0

    def unscale_and_check(self, params):
        finite = True
        for p in params:
            if p.grad is None:
                continue
            p.grad.div_(self.scale)
            if not torch.isfinite(p.grad).all():
                finite = False
        return finite

    def update(self, finite):
        if finite:
            self.good_steps += 1
            if self.good_steps % self.growth_interval == 0:
                self.scale *= 2.0
        else:
            self.scale /= 2.0
            self.good_steps = 0


def train(steps=4, batch=32):
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = DynamicLossScaler()
    for step in range(steps):
        x = torch.randn(batch, 10)
        y = torch.randint(0, 4, (batch,))
        loss = F.cross_entropy(model(x), y)
        unscaled = loss.item()
        loss *= scaler.scale
        opt.zero_grad()
        loss.backward()
        finite = scaler.unscale_and_check(model.parameters())
        if finite:
            opt.step()
        scaler.update(finite)
        print(f"step {step}: loss={unscaled:.4f} scale=2^{int(math.log2(scaler.scale))}")


if __name__ == "__main__":
    train()
