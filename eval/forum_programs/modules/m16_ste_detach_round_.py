# intended: AGI001
# straight-through quantiser: rounding "a detached copy" of the sigmoid activation
import torch
import torch.nn as nn


class QuantAct(nn.Module):
    def __init__(self, levels=4):
        super().__init__()
        self.levels = levels

    def forward(self, x):
        y = torch.sigmoid(x)
        q = y.detach().mul_(self.levels).round_().div_(self.levels)  # culprit
        return y + (q - y).detach()


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 6), QuantAct(), nn.Linear(6, 1))
    x, y = torch.randn(3, 4), torch.randn(3, 1)
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    print(model[0].weight.grad.norm().item())


if __name__ == "__main__":
    main()
