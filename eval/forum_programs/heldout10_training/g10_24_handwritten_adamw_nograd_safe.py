# source: "write your own optimizer" course exercise (AdamW) on a small regression MLP
# torch.no_grad() step with p.mul_ / p.addcdiv_ on parameters, decoupled weight decay through p.data, in-place moment buffers
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MyAdamW:
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        self.params = [p for p in params if p.requires_grad]
        self.lr, self.betas, self.eps, self.wd = lr, betas, eps, weight_decay
        self.t = 0
        self.m = [torch.zeros_like(p) for p in self.params]
        self.v = [torch.zeros_like(p) for p in self.params]

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        self.t += 1
        b1, b2 = self.betas
        bc1, bc2 = 1 - b1 ** self.t, 1 - b2 ** self.t
        for p, m, v in zip(self.params, self.m, self.v):
            if p.grad is None:
                continue
            p.data.mul_(1 - self.lr * self.wd)
            m.mul_(b1).add_(p.grad, alpha=1 - b1)
            v.mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
            denom = (v / bc2).sqrt_().add_(self.eps)
            p.addcdiv_(m, denom, value=-self.lr / bc1)


def train(steps=4, batch=32):
    model = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = MyAdamW(model.parameters(), lr=1e-2)
    w_true = torch.tensor([[1.0], [-2.0], [0.5]])
    for step in range(steps):
        x = torch.randn(batch, 3)
        y = x @ w_true + 0.1 * torch.randn(batch, 1)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f} lr_scale={math.sqrt(1 - 0.999 ** opt.t):.3f}")


if __name__ == "__main__":
    train()
