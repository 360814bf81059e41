# source: StackOverflow "RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation ... output 0 of ReluBackward0" (residual written as x += block(x))
# x is the ReLU output saved by ReluBackward0 and by block.conv1; the in-place residual add bumps its version
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        out = F.relu(self.conv1(x))
        return self.conv2(out)


class SmallResNet(nn.Module):
    def __init__(self, in_ch=3, width=8, num_classes=5, num_blocks=2):
        super().__init__()
        self.stem = nn.Conv2d(in_ch, width, 3, padding=1)
        self.blocks = nn.ModuleList([ResidualBlock(width) for _ in range(num_blocks)])
        self.head = nn.Linear(width, num_classes)

    def forward(self, x):
        x = F.relu(self.stem(x))
        for block in self.blocks:
            x += block(x)  # culprit
        x = x.mean(dim=(2, 3))
        return self.head(x)


model = SmallResNet()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
images = torch.randn(2, 3, 8, 8)
targets = torch.tensor([1, 3])

for step in range(2):
    opt.zero_grad()
    loss = F.cross_entropy(model(images), targets)
    loss.backward()
    opt.step()
    print(step, loss.item())
