# Source: huggingface/pytorch-image-models PR #156 (make timm's act_layer activations in-place by
# default; blocks build them as act_layer(inplace=True)), combined with iduta/iresnet PR #2
# (pre-activation ReLU rewriting the tensor the downsample shortcut used). Here norm_layer is
# Identity, so the activation is applied to x itself.
# Unit kind: class -- Net's shortcut conv saves x; PreActBlock (built with the act_layer factory
# Net passes in) rewrites x with its in-place activation.
import torch
import torch.nn as nn

torch.manual_seed(0)


class PreActBlock(nn.Module):
    def __init__(self, cin, cout, act_layer=nn.ReLU, norm_layer=nn.Identity):
        super().__init__()
        self.norm1 = norm_layer()
        self.act1 = act_layer(inplace=True)  # culprit
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
