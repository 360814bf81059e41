# intended: AGI001
# DETR-style layer: values use the plain features, queries/keys get the positional embedding, added with +=
import torch
import torch.nn as nn


class PosSelfAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q_proj = nn.Linear(d, d)
        self.k_proj = nn.Linear(d, d)
        self.v_proj = nn.Linear(d, d)
        self.out = nn.Linear(d, d)

    def forward(self, src, pos):
        x = src
        v = self.v_proj(x)
        x += pos  # culprit
        q = self.q_proj(x)
        k = self.k_proj(x)
        attn = (q @ k.transpose(-2, -1) / q.size(-1) ** 0.5).softmax(-1)
        return self.out(attn @ v)


class Encoder(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.inp = nn.Linear(3, d)
        self.layer = PosSelfAttention(d)

    def forward(self, feats, pos):
        return self.layer(self.inp(feats), pos)


def main():
    torch.manual_seed(0)
    enc = Encoder(8)
    feats = torch.randn(2, 5, 3)
    pos = torch.randn(1, 5, 8)
    loss = enc(feats, pos).pow(2).mean()
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
