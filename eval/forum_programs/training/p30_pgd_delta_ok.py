# intended: safe
# PGD adversarial training, projection done on delta.data.
import torch
import torch.nn as nn
import torch.nn.functional as F

def pgd(model, x, y, eps=0.1, alpha=0.02, steps=3):
    delta = torch.zeros_like(x, requires_grad=True)
    for _ in range(steps):
        loss = F.cross_entropy(model(x + delta), y)
        loss.backward()
        delta.data.add_(alpha * delta.grad.sign())
        delta.data.clamp_(-eps, eps)
        delta.grad.zero_()
    return delta.detach()

def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(16, 10), torch.randint(0, 3, (16,))
    delta = pgd(model, x, y)
    loss = F.cross_entropy(model(x + delta), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())

if __name__ == "__main__":
    main()
