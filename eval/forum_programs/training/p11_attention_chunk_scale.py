# intended: AGI003
# Self-attention with fused qkv projection; scaling q in place.
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
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q *= 1.0 / math.sqrt(self.d)  # culprit
        att = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return self.proj(att @ v)

def main():
    torch.manual_seed(0)
    m = SelfAttention(16)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
    x = torch.randn(2, 5, 16)
    loss = m(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())

if __name__ == "__main__":
    main()
