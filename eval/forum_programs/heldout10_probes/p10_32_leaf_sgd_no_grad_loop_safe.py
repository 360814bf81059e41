# probe: in-place updates of a leaf that requires grad are allowed under torch.no_grad(), after each backward
import torch

torch.manual_seed(0)


def train(w, x, y, steps=3, lr=0.1):
    for _ in range(steps):
        loss = ((x @ w) - y).pow(2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            w.grad.zero_()
    return loss


def main():
    w = torch.randn(4, 2, requires_grad=True)
    x = torch.randn(10, 4)
    y = torch.randn(10, 2)
    loss = train(w, x, y)
    print("final loss", loss.item())


if __name__ == "__main__":
    main()
