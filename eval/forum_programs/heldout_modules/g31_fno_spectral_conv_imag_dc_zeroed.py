# FNO-style spectral convolution: after the complex weight multiply, the DC imaginary part is zeroed in place
import torch
import torch.nn as nn


class SpectralConv1d(nn.Module):
    def __init__(self, c, modes):
        super().__init__()
        self.modes = modes
        self.w = nn.Parameter(torch.randn(c, c, modes, dtype=torch.cfloat) * 0.1)

    def forward(self, x):
        xf = torch.fft.rfft(x)
        out_f = torch.zeros(x.shape[0], x.shape[1], xf.shape[-1], dtype=torch.cfloat)
        out_f[..., :self.modes] = torch.einsum("bix,iox->box", xf[..., :self.modes], self.w)
        xf.imag[..., 0] = 0.0  # culprit
        return torch.fft.irfft(out_f, n=x.shape[-1])


torch.manual_seed(0)
sc = SpectralConv1d(2, 3)
lift = nn.Conv1d(1, 2, 1)
y = sc(lift(torch.randn(2, 1, 8)))
y.pow(2).sum().backward()
print(lift.weight.grad.norm())
