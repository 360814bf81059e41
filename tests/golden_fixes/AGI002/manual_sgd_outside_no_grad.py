"""Hand-written gradient descent without ``torch.no_grad()``: ``w -= lr * w.grad`` modifies a leaf that
requires grad while autograd is recording, and torch refuses at once."""
import torch


def run():
    torch.manual_seed(0)
    w = torch.randn(3, requires_grad=True)
    x, y = torch.randn(8, 3), torch.randn(8)
    lr = 0.1
    pred = x @ w
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad  # expect: AGI002
    return pred


if __name__ == "__main__":
    print(run())
