# source: "write your own optimizer" course exercise (SGD with momentum) on a small regression MLP
# optimizer step does p -= lr * buf on parameters outside torch.no_grad()
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MomentumSGD:
    def __init__(self, params, lr=0.01, momentum=0.9):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [torch.zeros_like(p) for p in self.params]

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.zero_()

    def step(self):
        for p, buf in zip(self.params, self.bufs):
            if p.grad is None:
                continue
            buf.mul_(self.momentum).add_(p.grad)
            p -= self.lr * buf  # culprit


def train(steps=3, batch=32):
    model = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = MomentumSGD(model.parameters(), lr=0.05)
    w_true = torch.tensor([[1.0], [-2.0], [0.5]])
    for step in range(steps):
        x = torch.randn(batch, 3)
        y = x @ w_true + 0.1 * torch.randn(batch, 1)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
