# probe: var saves only its input, so adding eps to the variance in place is fine
import torch
import torch.nn as nn

torch.manual_seed(0)


def batch_stats(h):
    return h.mean(0, keepdim=True), h.var(0, keepdim=True)


def main():
    fc = nn.Linear(4, 4)
    x = torch.randn(10, 4)
    h = fc(x)
    mean, var = batch_stats(h)
    var.add_(1e-5)
    normed = (h - mean) / var.sqrt()
    loss = normed.pow(3).mean()
    loss.backward()
    print("grad", fc.weight.grad.norm().item())


if __name__ == "__main__":
    main()
