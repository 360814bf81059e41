# Attention over [CLS]+tokens: the attention paid to CLS is removed through a None/Ellipsis view
import torch
import torch.nn as nn


class TokenAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)

    def forward(self, x):
        a = torch.softmax(self.q(x) @ self.k(x).transpose(-1, -2), dim=-1)
        cls_col = a[None, ..., :1]
        cls_col.zero_()  # culprit
        return a @ x


torch.manual_seed(0)
ta = TokenAttention(4)
y = ta(torch.randn(2, 3, 4))
y.sum().backward()
print(ta.q.weight.grad.norm())
