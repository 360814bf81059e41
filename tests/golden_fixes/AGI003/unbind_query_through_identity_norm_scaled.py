"""timm-style attention with ``qk_norm=False``: ``q, k, v = qkv.unbind(0)``, then ``q = self.q_norm(q)``
with ``nn.Identity()``, which returns its input itself -- still an output of ``unbind``, so scaling it in
place (``q.mul_(self.scale)``) is refused at once."""
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim=16, num_heads=2):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.q_norm = nn.Identity()
        self.k_norm = nn.Identity()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        q, k = self.q_norm(q), self.k_norm(k)
        q = q.mul(self.scale)  # expect: AGI003
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(x)


def run():
    torch.manual_seed(0)
    attn = Attention()
    out = attn(torch.randn(2, 5, 16))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
