# intended: safe
# CosFace with the margin applied by indexing: cos[rows, labels] -= m on the cosine
# matrix (the output of a matmul, which saved its inputs, not its output).
import torch
import torch.nn as nn
import torch.nn.functional as F


class CosHead(nn.Module):
    def __init__(self, dim, n_cls, s=16.0, m=0.25):
        super().__init__()
        self.W = nn.Parameter(torch.randn(n_cls, dim) * 0.1)
        self.s, self.m = s, m

    def forward(self, f, y):
        cos = F.linear(F.normalize(f, dim=1), F.normalize(self.W, dim=1))
        cos[torch.arange(len(y)), y] -= self.m
        return cos * self.s


torch.manual_seed(0)
enc = nn.Sequential(nn.Linear(9, 12), nn.ReLU(), nn.Linear(12, 5))
head = CosHead(5, 3)
opt = torch.optim.SGD([*enc.parameters(), *head.parameters()], lr=0.1)
x, y = torch.randn(10, 9), torch.randint(0, 3, (10,))
for step in range(2):
    loss = F.cross_entropy(head(enc(x), y), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
