# Source: huggingface/pytorch-image-models PR #156 (act_layer(inplace=True) activations) and
# iduta/iresnet PR #2. With a real norm_layer the in-place activation rewrites the BatchNorm
# output, a fresh tensor nothing saved, not the x the downsample conv saved.
# Clean look-alike of hazard/034.
# Unit kind: class.
import torch
import torch.nn as nn

torch.manual_seed(0)


class PreActBlock(nn.Module):
    def __init__(self, cin, cout, act_layer=nn.ReLU, norm_layer=nn.BatchNorm2d):
        super().__init__()
        self.norm1 = norm_layer(cin)
        self.act1 = act_layer(inplace=True)
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=2, padding=1)

    def forward(self, x):
        x = self.act1(self.norm1(x))
        return self.conv1(x)


class Net(nn.Module):
    def __init__(self, act_layer=nn.LeakyReLU):
        super().__init__()
        self.stem = nn.Conv2d(3, 4, 3, padding=1)
        self.downsample = nn.Conv2d(4, 8, 1, stride=2)
        self.block = PreActBlock(4, 8, act_layer=act_layer)

    def forward(self, x):
        x = self.stem(x)
        shortcut = self.downsample(x)
        return self.block(x) + shortcut


Net()(torch.randn(1, 3, 8, 8)).sum().backward()
print("done")
