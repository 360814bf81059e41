# intended: AGI001
# MHA returns its attention map for plotting; padded keys are zeroed in the map after it was used for the context
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        self.dk = d_model // n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)

    def forward(self, x, pad_mask):
        B, T, _ = x.shape
        q = self.q(x).view(B, T, self.h, self.dk).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, self.dk).transpose(1, 2)
        v = self.v(x).view(B, T, self.h, self.dk).transpose(1, 2)
        w = F.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.dk), dim=-1)
        ctx = w @ v
        # zero the padded columns so the returned map looks clean in tensorboard
        w.masked_fill_(pad_mask[:, None, None, :], 0.0)  # culprit
        ctx = ctx.transpose(1, 2).reshape(B, T, -1)
        return self.o(ctx), w


def main():
    torch.manual_seed(0)
    mha = MultiHeadAttention(8, 2)
    x = torch.randn(2, 4, 8)
    pad = torch.tensor([[False, False, False, True], [False, False, True, True]])
    out, attn = mha(x, pad)
    loss = out.pow(2).mean()
    loss.backward()
    print(attn.shape, loss.item())


if __name__ == "__main__":
    main()
