# DiT-style adaLN: the LayerNorm output is modulated in place by scale/shift predicted from the condition
import torch
import torch.nn as nn


class AdaLNBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d, elementwise_affine=False)
        self.ada = nn.Linear(d, 2 * d)
        self.mlp = nn.Linear(d, d)

    def forward(self, x, c):
        scale = self.ada(c)[:, :x.shape[-1]]
        shift = self.ada(c)[:, x.shape[-1]:]
        y = self.norm(x)
        y.mul_(1 + scale.unsqueeze(1)).add_(shift.unsqueeze(1))
        return x + self.mlp(y)


torch.manual_seed(0)
blk = AdaLNBlock(4)
x = torch.randn(2, 3, 4, requires_grad=True)
blk(x, torch.randn(2, 4)).sum().backward()
print(blk.ada.weight.grad.norm(), x.grad.norm())
