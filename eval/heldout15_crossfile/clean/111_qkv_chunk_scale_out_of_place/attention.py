import torch.nn as nn

from scaling import scale_query


class SelfAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = scale_query(q, self.dim)
        att = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return att @ v
