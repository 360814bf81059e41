# Source: iduta/iresnet PR #2 (blocks whose forward starts with out = self.relu(x) using
# nn.ReLU(inplace=True): the in-place ReLU rewrites the tensor the shortcut branch also used).
# Unit kind: class -- the shortcut conv (saves x) lives in Stage, the in-place ReLU in PreActBody.
import torch
import torch.nn as nn

torch.manual_seed(0)


class PreActBody(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.relu = nn.ReLU(inplace=True)  # culprit
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1)

    def forward(self, x):
        out = self.relu(x)
        return self.conv1(out)


class Stage(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.stem = nn.Conv2d(3, cin, 3, padding=1)
        self.downsample = nn.Conv2d(cin, cout, 1)
        self.body = PreActBody(cin, cout)

    def forward(self, img):
        x = self.stem(img)
        identity = self.downsample(x)
        return self.body(x) + identity


Stage(4, 8)(torch.randn(1, 3, 6, 6)).sum().backward()
print("done")
