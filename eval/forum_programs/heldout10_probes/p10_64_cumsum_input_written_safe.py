# probe: cumsum saves nothing, so writing both its input and its output in place before backward is fine
import torch
import torch.nn as nn

torch.manual_seed(0)


def running_total(increments):
    return torch.cumsum(increments, dim=1)


def main():
    fc = nn.Linear(3, 5)
    x = torch.randn(4, 3)
    inc = fc(x)
    totals = running_total(inc)
    inc.zero_()
    totals.sub_(totals.detach().mean())
    loss = totals.pow(2).mean() + inc.sum()
    loss.backward()
    print("grad", fc.weight.grad.norm().item())


if __name__ == "__main__":
    main()
