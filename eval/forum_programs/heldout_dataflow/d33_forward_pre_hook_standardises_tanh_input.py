# A forward pre-hook on the second layer standardises its input in place; that input is the previous
# tanh output, which tanh saved
import torch
import torch.nn as nn


def standardise(module, args):
    (x,) = args
    x.sub_(x.mean(0, keepdim=True))  # culprit


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 2))
net[2].register_forward_pre_hook(standardise)
out = net(torch.randn(8, 4))
out.pow(2).mean().backward()
print(net[0].weight.grad.norm().item())
