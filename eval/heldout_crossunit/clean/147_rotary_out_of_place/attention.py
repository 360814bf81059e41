import torch
import torch.nn as nn

from rotary import apply_rotary_


class SelfAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.d = d

    def forward(self, x, cos, sin):
        q, k, v = self.qkv(x).split(self.d, dim=-1)
        q = apply_rotary_(q, cos, sin)
        k = apply_rotary_(k, cos, sin)
        w = torch.softmax(q @ k.transpose(-1, -2) / self.d ** 0.5, -1)
        return w @ v
