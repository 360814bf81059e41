# intended: AGI002
# Implementing SGD with weight decay by hand, from a tutorial.
import torch

def main():
    torch.manual_seed(0)
    X = torch.randn(64, 5)
    y = X @ torch.tensor([1.0, -2.0, 0.5, 3.0, 0.0]) + 0.1 * torch.randn(64)
    w = torch.zeros(5, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    lr, wd = 0.05, 1e-4
    for epoch in range(20):
        pred = X @ w + b
        loss = ((pred - y) ** 2).mean()
        loss.backward()
        w -= lr * (w.grad + wd * w)  # culprit
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
        if epoch % 5 == 0:
            print(epoch, loss.item())

if __name__ == "__main__":
    main()
