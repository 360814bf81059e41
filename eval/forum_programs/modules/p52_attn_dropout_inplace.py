# attention dropout with inplace=True to save memory
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attn(nn.Module):
    def __init__(self, d, p=0.1):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.p = p

    def forward(self, x):
        s = self.q(x) @ self.k(x).transpose(-1, -2) * x.size(-1) ** -0.5
        a = F.softmax(s, dim=-1)
        a = F.dropout(a, self.p, self.training, inplace=True)  # culprit
        return a @ self.v(x)


def main():
    torch.manual_seed(0)
    m = Attn(8)
    m.train()
    m(torch.randn(2, 5, 8)).sum().backward()
    print(m.q.weight.grad.norm())


if __name__ == "__main__":
    main()
