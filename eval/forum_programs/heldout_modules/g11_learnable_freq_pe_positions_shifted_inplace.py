# Learnable-frequency encoding for a two-segment input: positions of the second segment shifted in place
import torch
import torch.nn as nn


class SegmentPE(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.freq = nn.Parameter(torch.linspace(0.1, 1.0, d))

    def forward(self, a, b):
        pos = torch.arange(a.shape[1], dtype=torch.float32)[:, None]
        ea = torch.sin(pos * self.freq)
        pos += a.shape[1]  # culprit
        eb = torch.sin(pos * self.freq)
        return a + ea, b + eb


torch.manual_seed(0)
pe = SegmentPE(4)
ya, yb = pe(torch.randn(2, 3, 4), torch.randn(2, 3, 4))
(ya.sum() + yb.sum()).backward()
print(pe.freq.grad)
