# attention: zeroing padded keys after softmax with masked_fill_
import math
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.d = d

    def forward(self, x, pad_mask):
        q, k, v = self.qkv(x).split(self.d, dim=-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d)
        attn = scores.softmax(dim=-1)
        attn.masked_fill_(pad_mask[:, None, :], 0.0)  # culprit
        return self.proj(attn @ v)


def main():
    torch.manual_seed(0)
    m = SelfAttention(8)
    x = torch.randn(2, 5, 8)
    pad = torch.tensor([[False] * 4 + [True], [False] * 3 + [True] * 2])
    y = m(x, pad)
    y.sum().backward()
    print(m.qkv.weight.grad.shape)


if __name__ == "__main__":
    main()
