# source: https://github.com/pytorch/pytorch/issues/36608
# Embedding rows obtained with unbind() are rescaled in place (mul_) -> UnbindBackward0 multi-view error.
import torch
import torch.nn as nn

torch.manual_seed(0)


class RowScaler(nn.Module):
    def __init__(self, n=3, d=4):
        super().__init__()
        self.root = nn.Parameter(torch.arange(float(n * d)).reshape(n, d) / 10)
        self.scales = [2.0, 0.5, 1.0]

    def forward(self):
        x = self.root.clone()
        rows = x.unbind()
        for row, s in zip(rows, self.scales):
            row.mul_(s)  # culprit
        return x


m = RowScaler()
out = m()
out.sum().backward()
print(m.root.grad)
