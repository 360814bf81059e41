"""Self-attention whose constructor takes an ``inplace=True`` flag for its dropouts (a memory-saving
option some transformer code exposes), built everywhere with the default. The attention dropout then
runs in place on the softmax probabilities -- which softmax saved, as its result, for backward -- and
training raises."""
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, dim, heads=2, attn_drop=0.1, inplace=True):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * (C // self.heads) ** -0.5
        attn = attn.softmax(dim=-1)
        attn = self.attn_drop(attn)  # expect: AGI001
        return self.proj((attn @ v).transpose(1, 2).reshape(B, N, C))


def run():
    torch.manual_seed(0)
    attention = SelfAttention(8)
    out = attention(torch.randn(2, 5, 8))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
