# intended: safe
# Same hand-written SGD with weight decay, correctly inside no_grad.
import torch

def sgd_step(params, lr, wd):
    with torch.no_grad():
        for p in params:
            p.grad.add_(p, alpha=wd)
            p -= lr * p.grad
            p.grad.zero_()

def main():
    torch.manual_seed(0)
    X = torch.randn(64, 5)
    y = X @ torch.tensor([1.0, -2.0, 0.5, 3.0, 0.0]) + 0.1 * torch.randn(64)
    w = torch.zeros(5, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    for epoch in range(20):
        pred = X @ w + b
        loss = ((pred - y) ** 2).mean()
        loss.backward()
        sgd_step([w, b], 0.05, 1e-4)
        if epoch % 5 == 0:
            print(epoch, loss.item())

if __name__ == "__main__":
    main()
