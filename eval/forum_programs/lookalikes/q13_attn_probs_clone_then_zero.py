# intended: safe
# Attention where the [CLS] column of the probabilities is dropped after the softmax. The
# softmax saved its result, so the code clones before zeroing and renormalising in place.
import torch
import torch.nn as nn


class NoClsAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.scale = d ** -0.5

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        attn = (q @ k.transpose(-2, -1) * self.scale).softmax(-1)
        attn = attn.clone()
        attn[:, 1:, 0] = 0.0
        attn[:, 1:] /= attn[:, 1:].sum(-1, keepdim=True)
        return self.proj(attn @ v)


def main():
    torch.manual_seed(0)
    layer = NoClsAttention(8)
    x = torch.randn(3, 6, 8)
    out = layer(x)
    loss = out.square().mean()
    loss.backward()
    print(loss.item(), layer.qkv.weight.grad.norm().item())


if __name__ == "__main__":
    main()
