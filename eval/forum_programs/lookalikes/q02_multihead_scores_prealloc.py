# intended: safe
# Hand-rolled multi-head attention that fills a preallocated score tensor head by head.
# The matmul results are written into `scores` before anything reads it, and the matmul
# saves q_h and k_h, never `scores`.
import math
import torch
import torch.nn as nn


class LoopedMHA(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        self.dk = d_model // n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, D = x.shape
        q = self.q(x).view(B, T, self.h, self.dk).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, self.dk).transpose(1, 2)
        v = self.v(x).view(B, T, self.h, self.dk).transpose(1, 2)
        scores = x.new_empty(B, self.h, T, T)
        for head in range(self.h):
            scores[:, head] = q[:, head] @ k[:, head].transpose(-2, -1)
        scores /= math.sqrt(self.dk)
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        scores.masked_fill_(causal, float("-inf"))
        attn = scores.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, T, D)
        return self.o(out)


def main():
    torch.manual_seed(0)
    mha = LoopedMHA(16, 4)
    x = torch.randn(2, 5, 16)
    target = torch.randn(2, 5, 16)
    loss = (mha(x) - target).pow(2).mean()
    loss.backward()
    print(loss.item(), mha.q.weight.grad.norm().item())


if __name__ == "__main__":
    main()
