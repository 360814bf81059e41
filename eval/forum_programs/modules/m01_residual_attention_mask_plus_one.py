# intended: AGI001
# Residual Attention Network style (1 + M(x)) * T(x): the "+1" is added in place to the sigmoid mask
import torch
from torch import nn


class AttentionModule(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv2d(ch, ch, 3, padding=1, bias=False),
            nn.BatchNorm2d(ch),
            nn.ReLU(inplace=True),
        )
        self.mask_branch = nn.Sequential(
            nn.MaxPool2d(2),
            nn.Conv2d(ch, ch, 1),
            nn.Upsample(scale_factor=2, mode="nearest"),
        )

    def forward(self, x):
        t = self.trunk(x)
        m = torch.sigmoid(self.mask_branch(x))
        m += 1.0  # culprit
        return m * t


def main():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), AttentionModule(8), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2))
    x = torch.randn(2, 3, 8, 8)
    y = torch.tensor([0, 1])
    loss = nn.functional.cross_entropy(net(x), y)
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
