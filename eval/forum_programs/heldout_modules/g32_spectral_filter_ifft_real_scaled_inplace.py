# Global filter layer: multiply in the frequency domain, go back, and rescale the real part in place
import torch
import torch.nn as nn


class GlobalFilter(nn.Module):
    def __init__(self, n, d):
        super().__init__()
        self.filt = nn.Parameter(torch.randn(n, d, dtype=torch.cfloat) * 0.02)
        self.gain = nn.Parameter(torch.ones(d))

    def forward(self, x):
        xf = torch.fft.fft(x, dim=1)
        xf = xf * self.filt
        y = torch.fft.ifft(xf, dim=1).real
        y.mul_(self.gain)
        y += x
        return y


torch.manual_seed(0)
gf = GlobalFilter(5, 3)
x = torch.randn(2, 5, 3, requires_grad=True)
gf(x).sum().backward()
print(gf.gain.grad, x.grad.norm())
