# intended: AGI001
# "don't attend to yourself": zero the diagonal of the attention matrix after softmax, then renormalise
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
        scores = self.q(x) @ self.k(x).transpose(1, 2) * self.scale
        attn = torch.softmax(scores, dim=-1)
        attn.diagonal(dim1=-2, dim2=-1).zero_()  # culprit
        attn = attn / attn.sum(-1, keepdim=True)
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
