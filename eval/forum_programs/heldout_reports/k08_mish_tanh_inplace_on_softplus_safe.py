# source: https://github.com/digantamisra98/Mish/issues/11 (Mish_ module: torch.tanh_ on the softplus result, then x * result)
import torch
import torch.nn as nn
import torch.nn.functional as F


class Mish_(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        softplus_res = F.softplus(x)
        torch.tanh_(softplus_res)
        return x * softplus_res


torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), Mish_(),
                    nn.Conv2d(4, 4, 3, padding=1), Mish_(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 3))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(2, 3, 8, 8)
y = torch.tensor([0, 2])
for _ in range(2):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
print(loss.item())
