"""timm 1.0.11 ``timm/models/tnt.py:72``: ``attn = attn.softmax(dim=-1); attn = self.attn_drop(attn)``
with ``self.attn_drop = nn.Dropout(attn_drop, inplace=True)``. softmax saves its result; in-place dropout
overwrites it. Real when ``attn_drop_rate > 0`` in training (``nn.Dropout(p=0)`` does not bump the
version counter, so the default config runs). The class below is tnt.py's ``Attention``, verbatim.

    python eval/corpus_repros/timm_tnt_attn_drop_inplace.py     # exit 0 when torch behaves as described
"""
import torch
from torch import nn

from _common import main


class Attention(nn.Module):
    """ Multi-Head Attention
    """
    def __init__(self, dim, hidden_dim, num_heads=8, qkv_bias=False, attn_drop=0., proj_drop=0.):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.num_heads = num_heads
        head_dim = hidden_dim // num_heads
        self.head_dim = head_dim
        self.scale = head_dim ** -0.5

        self.qk = nn.Linear(dim, hidden_dim * 2, bias=qkv_bias)
        self.v = nn.Linear(dim, dim, bias=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop, inplace=True)
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop, inplace=True)

    def forward(self, x):
        B, N, C = x.shape
        qk = self.qk(x).reshape(B, N, 2, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k = qk.unbind(0)   # make torchscript happy (cannot use tensor as tuple)
        v = self.v(x).reshape(B, N, self.num_heads, -1).permute(0, 2, 1, 3)

        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        attn = self.attn_drop(attn)  # culprit

        x = (attn @ v).transpose(1, 2).reshape(B, N, -1)
        x = self.proj(x)
        x = self.proj_drop(x)
        return x


def case(attn_drop, training):
    def go():
        module = Attention(dim=16, hidden_dim=16, num_heads=2, attn_drop=attn_drop).train(training)
        module(torch.randn(2, 5, 16, requires_grad=True)).sum().backward()
    return go


if __name__ == "__main__":
    main([
        ("attn_drop=0.1, train()", case(0.1, True), True),
        ("attn_drop=0.0, train() (timm's default)", case(0.0, True), False),
        ("attn_drop=0.1, eval()", case(0.1, False), False),
    ])
