# intended: safe
# PGD on the input: x_adv is rebuilt out of place each iteration, then projected in place
# (x_adv is not a leaf, and add/sub save nothing, so the in-place projection is fine).
import torch
import torch.nn as nn
import torch.nn.functional as F


class PGD:
    def __init__(self, model, eps=0.3, alpha=0.1, steps=4):
        self.model, self.eps, self.alpha, self.steps = model, eps, alpha, steps

    def __call__(self, x, y):
        x_adv = (x + torch.empty_like(x).uniform_(-self.eps, self.eps)).requires_grad_(True)
        for _ in range(self.steps):
            loss = F.cross_entropy(self.model(x_adv), y)
            g, = torch.autograd.grad(loss, x_adv)
            x_adv = x_adv + self.alpha * g.sign()
            x_adv.sub_(x).clamp_(-self.eps, self.eps).add_(x)
        return x_adv.detach()


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    attack = PGD(model)
    x, y = torch.randn(16, 10), torch.randint(0, 3, (16,))
    for epoch in range(2):
        x_adv = attack(x, y)
        loss = F.cross_entropy(model(x_adv), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
