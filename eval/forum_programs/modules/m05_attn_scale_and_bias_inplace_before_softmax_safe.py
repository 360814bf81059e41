# intended: safe
# T5/Swin-style attention: scores scaled in place and a learned relative bias added in place, all before softmax
import math
import torch
from torch import nn


class RelPosAttention(nn.Module):
    def __init__(self, d, n_heads, max_len):
        super().__init__()
        self.n_heads = n_heads
        self.dk = d // n_heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.rel_bias = nn.Parameter(torch.zeros(n_heads, max_len, max_len))

    def forward(self, x):
        B, T, C = x.shape
        qkv = self.qkv(x).reshape(B, T, 3, self.n_heads, self.dk).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = torch.matmul(q, k.transpose(-1, -2))
        scores /= math.sqrt(self.dk)
        scores += self.rel_bias[:, :T, :T]
        attn = scores.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, T, C)
        return self.proj(out)


def main():
    torch.manual_seed(0)
    layer = RelPosAttention(8, 2, 6)
    x = torch.randn(3, 5, 8)
    loss = layer(x).square().mean()
    loss.backward()
    print(layer.rel_bias.grad.abs().sum().item())


if __name__ == "__main__":
    main()
