# intended: safe
# ReLU(inplace=True) after max-pooling, and F.relu_ on the values of a max over a dimension
import torch
import torch.nn as nn
import torch.nn.functional as F


class PoolNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3, padding=1)
        self.bn = nn.BatchNorm2d(6)
        self.pool = nn.MaxPool2d(2)
        self.act = nn.ReLU(inplace=True)
        self.fc = nn.Linear(6 * 2 * 2 + 6, 3)

    def forward(self, x):
        feats = self.act(self.pool(self.bn(self.conv(x))))
        chan_max, _ = torch.max(feats.flatten(2), dim=2)
        F.relu_(chan_max)
        return self.fc(torch.cat([feats.flatten(1), chan_max], 1))


def main():
    torch.manual_seed(0)
    net = PoolNet()
    x = torch.randn(2, 3, 4, 4)
    loss = F.cross_entropy(net(x), torch.tensor([2, 0]))
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
