# Source: https://www.yongfengli.tk/2018/04/13/inplace-operation-in-pytorch.html (b = mm(param, a);
# for i: b[i] = b[i] + 1; y = y + mm(param, b) -- the assignment to b[i] changes what mm saved).
# Unit kind: function -- the per-row bump is factored into a helper.
import torch
import torch.nn as nn

torch.manual_seed(0)


def bump_row(b, i):
    b[i] = b[i] + 1  # culprit
    return b


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.param = nn.Parameter(torch.randn(4, 4))

    def forward(self, a):
        y = 0
        b = torch.mm(self.param, a)
        for i in range(4):
            b = bump_row(b, i)
            y = y + torch.mm(self.param, b)
        return y


Net()(torch.randn(4, 1)).sum().backward()
print("done")
