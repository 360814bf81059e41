# intended: safe
# "don't attend to yourself" done on the raw scores: diagonal filled with -inf before softmax
import torch
import torch.nn as nn


class NoSelfAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.scale = d ** -0.5

    def forward(self, x):
        scores = torch.einsum("bqd,bkd->bqk", self.q(x), self.k(x)) * self.scale
        scores.diagonal(dim1=1, dim2=2).fill_(float("-inf"))
        attn = scores.softmax(-1)
        return attn @ self.v(x)


def main():
    torch.manual_seed(0)
    layer = NoSelfAttention(6)
    x = torch.randn(2, 4, 6)
    loss = layer(x).abs().mean()
    loss.backward()
    print(layer.q.weight.grad.norm().item())


if __name__ == "__main__":
    main()
