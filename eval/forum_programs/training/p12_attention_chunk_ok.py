# intended: safe
# Fused qkv attention: masking of scores in place is fine (matmul does not save its output).
import math
import torch
import torch.nn as nn

class SelfAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.d = d
    def forward(self, x):
        T = x.shape[1]
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q * (1.0 / math.sqrt(self.d))
        scores = q @ k.transpose(-2, -1)
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        scores.masked_fill_(causal, float("-inf"))
        att = scores.softmax(dim=-1)
        return self.proj(att @ v)

def main():
    torch.manual_seed(0)
    m = SelfAttention(16)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
    x = torch.randn(2, 5, 16)
    for _ in range(2):
        loss = m(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(loss.item())

if __name__ == "__main__":
    main()
