# source: https://github.com/pytorch/pytorch/issues/36608
# Fixed: scale each unbound row out of place and re-stack instead of mul_ on the views.
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
        return torch.stack([row * s for row, s in zip(rows, self.scales)])


m = RowScaler()
out = m()
out.sum().backward()
print(m.root.grad)
