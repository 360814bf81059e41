# intended: AGI001
# residual written the other way round: x += self.body(x) to "save a buffer"
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(c, c, 3, padding=1, bias=False),
            nn.BatchNorm2d(c),
            nn.ReLU(inplace=True),
            nn.Conv2d(c, c, 3, padding=1, bias=False),
            nn.BatchNorm2d(c),
        )

    def forward(self, x):
        x += self.body(x)  # culprit
        return x


def main():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), Block(4), Block(4), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
    x = torch.randn(2, 3, 6, 6)
    loss = nn.functional.cross_entropy(net(x), torch.tensor([1, 0]))
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
