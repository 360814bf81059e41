# Feature dropout done "efficiently" with out=: the raw input features are overwritten after the einsum used them
import torch
import torch.nn as nn


class BasisProjector(nn.Module):
    def __init__(self, d, k):
        super().__init__()
        self.basis = nn.Parameter(torch.randn(k, d) * 0.1)

    def forward(self, feats, drop_mask=None):
        coeff = torch.einsum("bd,kd->bk", feats, self.basis)
        if drop_mask is not None:
            torch.mul(feats, drop_mask, out=feats)  # culprit
        return coeff, feats


torch.manual_seed(0)
proj = BasisProjector(6, 3)
feats = torch.randn(4, 6)
mask = (torch.rand(4, 6) > 0.3).float()
coeff, masked = proj(feats, mask)
coeff.pow(2).sum().backward()
print(proj.basis.grad.norm())
