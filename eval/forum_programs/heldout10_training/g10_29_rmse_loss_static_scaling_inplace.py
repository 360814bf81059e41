# source: hand-rolled mixed-precision style static loss scaling (pre-torch.cuda.amp blog post), RMSE regression
# RMSE loss = sqrt(mse); loss *= scale in place before backward, then grads unscaled in place
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class StaticLossScaler:
    def __init__(self, scale=2.0 ** 10):
        self.scale = scale

    def scale_loss(self, loss):
        loss *= self.scale  # culprit
        return loss

    def unscale_(self, params):
        for p in params:
            if p.grad is not None:
                p.grad.div_(self.scale)


def rmse(pred, target):
    return torch.sqrt(F.mse_loss(pred, target) + 1e-8)


def train(steps=3, batch=32):
    model = nn.Sequential(nn.Linear(6, 32), nn.SiLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    scaler = StaticLossScaler()
    for step in range(steps):
        x = torch.randn(batch, 6)
        y = x[:, :1] * 2 - x[:, 1:2]
        loss = rmse(model(x), y)
        opt.zero_grad()
        scaler.scale_loss(loss).backward()
        scaler.unscale_(model.parameters())
        opt.step()
        print(f"step {step}: scaled loss={loss.item():.2f}")


if __name__ == "__main__":
    train()
