# source: https://www.yongfengli.tk/2018/04/13/inplace-operation-in-pytorch.html (b = mm(param, a); b[i] = b[i] + 1 in a loop; y += mm(param, b))
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.param = nn.Parameter(torch.randn(10, 10) * 0.1)

    def forward(self, a):
        b = torch.Tensor(10, 1)
        y = 0
        b = torch.mm(self.param, a)
        for i in range(10):
            b[i] = b[i] + 1  # culprit
            y = y + torch.mm(self.param, b)
        return y


torch.manual_seed(0)
net = Net()
a = torch.randn(10, 1)
y = net(a)
y.sum().backward()
print(y.sum().item())
