# adaLN-Zero: scale and shift come from chunk(), and "1 + scale" is computed in place on the chunk
import torch
import torch.nn as nn


class AdaLNZero(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d, elementwise_affine=False)
        self.ada = nn.Sequential(nn.SiLU(), nn.Linear(d, 2 * d))

    def forward(self, x, c):
        shift, scale = self.ada(c).chunk(2, dim=-1)
        scale.add_(1.0)  # culprit
        return self.norm(x) * scale.unsqueeze(1) + shift.unsqueeze(1)


torch.manual_seed(0)
blk = AdaLNZero(4)
out = blk(torch.randn(2, 3, 4), torch.randn(2, 4))
out.sum().backward()
print(blk.ada[1].weight.grad.norm())
