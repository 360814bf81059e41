# q *= scale after qkv.chunk(3)
import torch
import torch.nn as nn
import torch.nn.functional as F


class MHA(nn.Module):
    def __init__(self, dim, heads=2):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, _ = x.shape
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q *= self.scale  # culprit
        q, k, v = (t.reshape(b, n, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        attn = F.softmax(q @ k.transpose(-1, -2), dim=-1)
        o = (attn @ v).transpose(1, 2).reshape(b, n, -1)
        return self.out(o)


def main():
    torch.manual_seed(0)
    m = MHA(8)
    m(torch.randn(2, 4, 8)).sum().backward()
    print(m.to_qkv.weight.grad.norm())


if __name__ == "__main__":
    main()
