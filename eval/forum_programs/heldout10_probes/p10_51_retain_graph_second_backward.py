# probe: with retain_graph=True the saved exp output is checked again on the second backward; a no_grad write between the two calls makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def main():
    fc = nn.Linear(4, 4)
    x = torch.randn(3, 4)
    y = torch.exp(fc(x))
    loss = y.sum()
    loss.backward(retain_graph=True)
    with torch.no_grad():
        y.mul_(0.5)  # culprit
    loss.backward()
    print("grad", fc.weight.grad.norm().item())


if __name__ == "__main__":
    main()
