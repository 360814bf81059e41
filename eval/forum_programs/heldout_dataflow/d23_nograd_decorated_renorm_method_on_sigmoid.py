# A @torch.no_grad() method renormalises the sigmoid attention map in place "without tracking"; no_grad
# does not stop the version bump on the tensor sigmoid saved
import torch
import torch.nn as nn


class SpatialGate(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, 1, 3, padding=1)

    @torch.no_grad()
    def _renorm(self, a):
        a.div_(a.amax(dim=(-1, -2), keepdim=True))  # culprit

    def forward(self, x):
        a = torch.sigmoid(self.conv(x))
        self._renorm(a)
        return x * a


torch.manual_seed(0)
gate = SpatialGate(3)
gate(torch.randn(2, 3, 5, 5)).mean().backward()
print(gate.conv.weight.grad.norm().item())
