# source: https://github.com/werner-duvaud/muzero-general/issues/89 (ResidualBlock does x += x after bn2 instead of adding the block input)
import torch


def conv3x3(in_channels, out_channels, stride=1):
    return torch.nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=stride, padding=1, bias=False)


class ResidualBlock(torch.nn.Module):
    def __init__(self, num_channels, stride=1):
        super().__init__()
        self.conv1 = conv3x3(num_channels, num_channels, stride)
        self.bn1 = torch.nn.BatchNorm2d(num_channels)
        self.conv2 = conv3x3(num_channels, num_channels)
        self.bn2 = torch.nn.BatchNorm2d(num_channels)

    def forward(self, x):
        x = self.conv1(x)
        x = self.bn1(x)
        x = torch.nn.functional.relu(x)
        x = self.conv2(x)
        x = self.bn2(x)
        x += x
        x = torch.nn.functional.relu(x)
        return x


class RepresentationNetwork(torch.nn.Module):
    def __init__(self, channels, num_blocks):
        super().__init__()
        self.conv = conv3x3(3, channels)
        self.bn = torch.nn.BatchNorm2d(channels)
        self.resblocks = torch.nn.ModuleList([ResidualBlock(channels) for _ in range(num_blocks)])

    def forward(self, x):
        x = torch.nn.functional.relu(self.bn(self.conv(x)))
        for block in self.resblocks:
            x = block(x)
        return x


torch.manual_seed(0)
net = RepresentationNetwork(4, 2)
value_head = torch.nn.Linear(4 * 4 * 4, 1)
obs = torch.randn(2, 3, 4, 4)
v = value_head(net(obs).flatten(1))
loss = (v - torch.ones_like(v)).pow(2).mean()
loss.backward()
print(loss.item())
