# pre-LN transformer block; switched residual to += to save memory -> backward error
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d, n_head=2):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, n_head, batch_first=True)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        x += self.mlp(self.ln2(x))  # culprit
        return x


def main():
    torch.manual_seed(0)
    blk = Block(8)
    x = torch.randn(2, 5, 8)
    blk(x).sum().backward()
    print(blk.ln2.weight.grad)


if __name__ == "__main__":
    main()
