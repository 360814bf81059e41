# intended: safe
# A from-scratch Adam: moment buffers and parameters are updated in place under no_grad
# after backward, with bias correction.
import math
import torch
import torch.nn as nn


class ManualAdam:
    def __init__(self, params, lr=1e-2, betas=(0.9, 0.999), eps=1e-8, wd=0.01):
        self.params = [p for p in params if p.requires_grad]
        self.lr, self.betas, self.eps, self.wd = lr, betas, eps, wd
        self.state = [{"m": torch.zeros_like(p), "v": torch.zeros_like(p)} for p in self.params]
        self.t = 0

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        self.t += 1
        b1, b2 = self.betas
        for p, st in zip(self.params, self.state):
            g = p.grad
            p.mul_(1 - self.lr * self.wd)
            st["m"].mul_(b1).add_(g, alpha=1 - b1)
            st["v"].mul_(b2).addcmul_(g, g, value=1 - b2)
            denom = (st["v"] / (1 - b2 ** self.t)).sqrt_().add_(self.eps)
            p.addcdiv_(st["m"], denom, value=-self.lr / (1 - b1 ** self.t))


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 16), nn.Softplus(), nn.Linear(16, 1))
    opt = ManualAdam(model.parameters())
    x = torch.randn(32, 3)
    y = (x ** 2).sum(1, keepdim=True)
    for step in range(5):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4), round(math.sqrt(sum(p.pow(2).sum().item() for p in opt.params)), 4))


if __name__ == "__main__":
    main()
