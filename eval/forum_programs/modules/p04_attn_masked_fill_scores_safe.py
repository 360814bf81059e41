# causal mask applied in-place to the raw scores before softmax (works fine)
import math
import torch
import torch.nn as nn


class CausalSelfAttention(nn.Module):
    def __init__(self, d, n_head=2):
        super().__init__()
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.n_head = n_head
        self.register_buffer("bias", torch.tril(torch.ones(16, 16)).view(1, 1, 16, 16))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = q @ k.transpose(-2, -1)
        att.masked_fill_(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att /= math.sqrt(k.size(-1))
        att = torch.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


def main():
    torch.manual_seed(0)
    m = CausalSelfAttention(8)
    y = m(torch.randn(2, 6, 8))
    y.sum().backward()
    print("grad", m.c_attn.weight.grad.norm().item())


if __name__ == "__main__":
    main()
