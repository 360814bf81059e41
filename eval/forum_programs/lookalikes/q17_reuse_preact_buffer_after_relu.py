# intended: safe
# A block that reuses the pre-activation tensor as the skip branch's buffer after ReLU has
# consumed it: relu saves its output, not its input, and fc1 saved x, not its output.
import torch
import torch.nn as nn


class SkipMLPBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = nn.Linear(d, d)
        self.fc2 = nn.Linear(d, d)
        self.shortcut = nn.Linear(d, d, bias=False)

    def forward(self, x):
        h = self.fc1(x)
        a = torch.relu(h)
        h += self.shortcut(x)
        h *= 0.5
        return self.fc2(a) + h


def main():
    torch.manual_seed(0)
    block = nn.Sequential(SkipMLPBlock(10), SkipMLPBlock(10))
    opt = torch.optim.Adam(block.parameters(), lr=1e-3)
    x = torch.randn(12, 10)
    for step in range(3):
        loss = (block(x) - x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 5))


if __name__ == "__main__":
    main()
