# Source: zylo117/Yet-Another-EfficientDet-Pytorch#503 (the fusion weights go through a
# non-in-place nn.ReLU(), as in the repository's model.py).
# Clean look-alike of hazard/041.
# Unit kind: class.
import torch
import torch.nn as nn

torch.manual_seed(0)


class FuseFeature(nn.Module):
    def __init__(self, weight_act, eps=1e-4):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(2, dtype=torch.float32), requires_grad=True)
        self.weight_act = weight_act

    def forward(self, a, b):
        w = self.weight_act(self.weight)
        w = w / (torch.sum(w, dim=0) + self.eps)
        return w[0] * a + w[1] * b


class BiFPNLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fuse = FuseFeature(nn.ReLU())
        self.conv = nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, p_in, p_up):
        return self.conv(self.fuse(p_in, p_up))


BiFPNLayer()(torch.randn(1, 4, 4, 4), torch.randn(1, 4, 4, 4)).sum().backward()
print("done")
