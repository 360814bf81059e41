"""A pre-norm gated block: the LayerNorm output feeds a product (which saves it), then is shifted in place
for the residual branch before backward. (``nn.LayerNorm`` returns one tensor, though the ATen op behind it
returns three.)"""
import torch
import torch.nn as nn


class GatedPreNormBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.gate = nn.Linear(dim, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        h = self.norm(x)
        gated = h * torch.sigmoid(self.gate(x))
        h = h + 0.1  # expect: AGI001
        return x + self.proj(gated) + h


def run():
    torch.manual_seed(0)
    block = GatedPreNormBlock(6)
    out = block(torch.randn(2, 4, 6))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run().shape)
