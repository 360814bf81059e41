"""``log`` saves its input (d log(u) = 1 / u); refilling that input in place breaks backward."""
import torch


def fn(x):
    h = x.abs() + 0.5
    y = h.log()
    h = h.clone().fill_(1.0)  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
