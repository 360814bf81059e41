"""ViT attention as timm writes it, with an optional query/key norm: ``self.q_norm = norm_layer(d) if
qk_norm else nn.Identity()``. With the norm off (the default) ``self.q_norm(q)`` hands back ``q`` itself,
an output of ``qkv.unbind(0)``, and scaling it in place raises at once: torch refuses to write an output
of a function that returns several views."""
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, num_heads=2, qk_norm=False, norm_layer=nn.LayerNorm):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.q_norm = norm_layer(self.head_dim) if qk_norm else nn.Identity()
        self.k_norm = norm_layer(self.head_dim) if qk_norm else nn.Identity()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        q, k = self.q_norm(q), self.k_norm(k)
        q = q * self.scale  # expect: AGI003
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B, N, C))


def run():
    torch.manual_seed(0)
    attention = Attention(8)
    out = attention(torch.randn(2, 5, 8))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
