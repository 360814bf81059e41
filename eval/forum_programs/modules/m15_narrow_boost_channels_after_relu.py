# intended: AGI001
# boosting the first k channels of a ReLU feature map through a narrow() view
import torch
import torch.nn as nn
import torch.nn.functional as F


class BoostedConv(nn.Module):
    def __init__(self, cin, cout, k, boost=2.0):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.k = k
        self.boost = boost

    def forward(self, x):
        feat = F.relu(self.conv(x))
        feat.narrow(1, 0, self.k).mul_(self.boost)  # culprit
        return feat


def main():
    torch.manual_seed(0)
    net = nn.Sequential(BoostedConv(3, 6, 2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(6, 3))
    x = torch.randn(2, 3, 5, 5)
    loss = F.cross_entropy(net(x), torch.tensor([0, 2]))
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
