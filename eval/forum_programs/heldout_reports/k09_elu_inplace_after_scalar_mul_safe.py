# source: https://github.com/pytorch/pytorch/issues/582 (nn.ELU(inplace=True) on input * 2, then backward)
import torch
import torch.nn as nn

torch.manual_seed(0)
input = torch.randn(10, requires_grad=True)

relu = nn.ReLU(inplace=True)
h1 = input * 2
out = relu(h1)
out.backward(torch.randn(10))

elu = nn.ELU(inplace=True)
h1 = input * 2
out = elu(h1)
out.backward(torch.randn(10))
print(input.grad)
