import torch.nn as nn

import masking as M


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.scale = dim ** -0.5

    def forward(self, x, key_mask):
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        dots = (q @ k.transpose(-1, -2)) * self.scale   # scaling by a number saves nothing of dots
        dots = M.mask_padded_keys(dots, key_mask)
        attn = dots.softmax(dim=-1)
        return attn @ v
