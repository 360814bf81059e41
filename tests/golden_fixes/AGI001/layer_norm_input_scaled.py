"""``nn.LayerNorm`` saves its input; scaling that input in place after the norm breaks backward."""
import torch
from torch import nn


class PreNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        h = self.proj(x)
        y = self.norm(h)
        h = h.mul(0.5)  # expect: AGI001
        return y + h


def run():
    torch.manual_seed(0)
    model = PreNorm(4)
    out = model(torch.randn(2, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
