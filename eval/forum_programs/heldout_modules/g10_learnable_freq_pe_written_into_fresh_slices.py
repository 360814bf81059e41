# Sinusoidal encoding with learnable frequencies, written into even/odd slices of a fresh buffer
import torch
import torch.nn as nn


class LearnedFreqPE(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.freq = nn.Parameter(torch.exp(-torch.arange(0, d, 2).float() / d))
        self.d = d

    def forward(self, x):
        T = x.shape[1]
        pos = torch.arange(T, dtype=torch.float32).unsqueeze(1)
        ang = pos * self.freq
        pe = x.new_zeros(T, self.d)
        pe[:, 0::2] = torch.sin(ang)
        pe[:, 1::2] = torch.cos(ang)
        return x + pe


torch.manual_seed(0)
pe = LearnedFreqPE(6)
out = pe(torch.randn(2, 4, 6))
out.pow(2).sum().backward()
print(pe.freq.grad)
