# Source: huggingface/pytorch-image-models PR #156 (make timm's act_layer activations in-place by
# default; blocks build them as act_layer(inplace=True)), combined with iduta/iresnet PR #2 (pre-activation ReLU rewriting the
# tensor the downsample shortcut used). Here norm_layer is Identity, so the act is applied to x.
# Unit kind: class -- the factory is passed from the network class into the block class.
import torch
import torch.nn as nn

torch.manual_seed(0)


class PreActBlock(nn.Module):
    def __init__(self, cin, cout, act_layer=nn.ReLU, norm_layer=nn.Identity):
        super().__init__()
        self.norm1 = norm_layer()
        self.act1 = act_layer(inplace=True)  # culprit
        self.downsample = nn.Conv2d(cin, cout, 1, stride=2)
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=2, padding=1)

    def forward(self, x):
        shortcut = self.downsample(x)
        x = self.act1(self.norm1(x))
        return self.conv1(x) + shortcut


class Net(nn.Module):
    def __init__(self, act_layer=nn.LeakyReLU):
        super().__init__()
        self.stem = nn.Conv2d(3, 4, 3, padding=1)
        self.block = PreActBlock(4, 8, act_layer=act_layer)

    def forward(self, x):
        return self.block(self.stem(x))


Net()(torch.randn(1, 3, 8, 8)).sum().backward()
print("done")
