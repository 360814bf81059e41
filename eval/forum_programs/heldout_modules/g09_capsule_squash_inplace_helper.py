# A "memory friendly" squash that rescales its argument in place
import torch
import torch.nn as nn


def squash_(s, eps=1e-8):
    n2 = (s * s).sum(-1, keepdim=True)
    s.mul_(n2 / (1 + n2) / torch.sqrt(n2 + eps))  # culprit
    return s


class PrimaryCaps(nn.Module):
    def __init__(self, c_in, n_caps, d_caps):
        super().__init__()
        self.conv = nn.Conv2d(c_in, n_caps * d_caps, 3, stride=2)
        self.d = d_caps

    def forward(self, x):
        out = self.conv(x)
        out = out.view(x.shape[0], -1, self.d)
        return squash_(out)


torch.manual_seed(0)
pc = PrimaryCaps(2, 4, 8)
caps = pc(torch.randn(2, 2, 9, 9))
caps.norm(dim=-1).mean().backward()
print(pc.conv.weight.grad.norm())
