# probe: an in-place update of a leaf that requires grad outside torch.no_grad() is refused
import torch

torch.manual_seed(0)


def sgd_step(w, lr):
    w -= lr * w.grad  # culprit


def main():
    w = torch.randn(4, 2, requires_grad=True)
    x = torch.randn(10, 4)
    y = torch.randn(10, 2)
    loss = ((x @ w) - y).pow(2).mean()
    loss.backward()
    sgd_step(w, 0.1)
    print("loss", loss.item())


if __name__ == "__main__":
    main()
