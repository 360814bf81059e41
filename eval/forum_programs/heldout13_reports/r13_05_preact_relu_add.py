# source: https://github.com/pytorch/vision/issues/807 ("Why in-place operation for ReLU is used in models/examples?", fmassa's pre-activation example)
# A residual CNN whose blocks apply the activation before adding the shortcut, trained on random images.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ResidualBlock(nn.Module):
    def __init__(self, ch_in, ch_out, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(ch_in, ch_out, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(ch_out)
        self.conv2 = nn.Conv2d(ch_out, ch_out, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(ch_out)
        self.relu = nn.ReLU(inplace=True)
        self.shortcut = None
        if stride != 1 or ch_in != ch_out:
            self.shortcut = nn.Sequential(nn.Conv2d(ch_in, ch_out, 1, stride, bias=False), nn.BatchNorm2d(ch_out))

    def forward(self, x):
        identity = x if self.shortcut is None else self.shortcut(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = self.relu(out)
        out += identity  # culprit
        return out


class Net(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 8, 3, 1, 1), nn.ReLU())
        self.blocks = nn.Sequential(
            ResidualBlock(8, 8),
            ResidualBlock(8, 16, stride=2),
            ResidualBlock(16, 16),
        )
        self.head = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.head(x.mean(dim=(2, 3)))


def train(model, steps=3):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        x = torch.randn(6, 1, 16, 16)
        y = torch.randint(0, 4, (6,))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


train(Net())
