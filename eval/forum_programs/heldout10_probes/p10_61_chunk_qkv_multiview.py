# probe: chunk returns multiple views; scaling q in place after chunking a fused qkv projection is refused
import torch
import torch.nn as nn

torch.manual_seed(0)


class FusedAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.scale = dim ** -0.5

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q.mul_(self.scale)  # culprit
        attn = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
        return attn @ v


def main():
    layer = FusedAttention(4)
    x = torch.randn(2, 3, 4)
    loss = layer(x).pow(2).mean()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
