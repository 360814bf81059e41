# Bilinear pooling with the signed square root done as an in-place chain on the einsum output
import torch
import torch.nn as nn


class BilinearPool(nn.Module):
    def __init__(self, d, n_cls):
        super().__init__()
        self.a = nn.Linear(d, d)
        self.b = nn.Linear(d, d)
        self.fc = nn.Linear(d * d, n_cls)

    def forward(self, x):
        fa, fb = self.a(x), self.b(x)
        z = torch.einsum("bni,bnj->bij", fa, fb).flatten(1) / x.shape[1]
        z = torch.sign(z) * z.abs_().add_(1e-5).sqrt_()
        z = z / z.norm(dim=1, keepdim=True)
        return self.fc(z)


torch.manual_seed(0)
bp = BilinearPool(3, 2)
out = bp(torch.randn(2, 4, 3))
out.sum().backward()
print(bp.a.weight.grad.norm())
