# source: https://discuss.pytorch.org/t/understanding-autograd-relu-inplace-true/89031
# ResNet-like helper that accumulates residuals with += and applies F.relu(inplace=True); nothing saved is overwritten.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def residual_activation_inplace(x, residual, activation, inplace):
    for r in residual:
        x += r
    return activation(x, inplace=inplace)


class Block(nn.Module):
    def __init__(self, d=4):
        super().__init__()
        self.main = nn.Linear(d, d)
        self.branch1 = nn.Linear(d, d)
        self.branch2 = nn.Linear(d, d)

    def forward(self, inp):
        x = self.main(inp)
        residual = [self.branch1(inp), self.branch2(inp)]
        return residual_activation_inplace(x, residual, F.relu, inplace=True)


block = Block()
inp = torch.rand(3, 4)
out = block(inp)
out.sum().backward()
print(block.main.weight.grad.shape)

# the thread's scalar check: clone the leaf first, then relu_ on the clone
x = torch.tensor([-1.0]).requires_grad_()
x2 = x.clone()
print(torch.autograd.grad(F.relu_(x2), (x,))[0])
