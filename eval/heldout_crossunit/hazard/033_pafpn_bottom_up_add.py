# Source: open-mmlab/mmdetection PR #7175 (in-place additions in the FPN family of necks raise
# "one of the variables needed for gradient computation has been modified by an inplace operation").
# Unit kind: class -- activated ConvModule outputs are accumulated in place by the PAFPN neck.
import torch
import torch.nn as nn

torch.manual_seed(0)


class ConvAct(nn.Module):
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, stride=stride, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x))


class PAFPNBottomUp(nn.Module):
    def __init__(self, c, levels=3):
        super().__init__()
        self.inner = nn.ModuleList([ConvAct(c, c) for _ in range(levels)])
        self.downsample_convs = nn.ModuleList([ConvAct(c, c, stride=2) for _ in range(levels - 1)])

    def forward(self, feats):
        outs = [m(f) for m, f in zip(self.inner, feats)]
        for i in range(len(outs) - 1):
            outs[i + 1] += self.downsample_convs[i](outs[i])  # culprit
        return outs


neck = PAFPNBottomUp(4)
outs = neck([torch.randn(1, 4, 8, 8), torch.randn(1, 4, 4, 4), torch.randn(1, 4, 2, 2)])
sum(o.mean() for o in outs).backward()
print("done")
