# source: https://github.com/pytorch/pytorch/issues/114505 (the reporter's working version: clone the column first)
import torch


def func(a):
    b = torch.zeros_like(a)
    b[:, 0] = a[:, 0]
    b[:, 1] = torch.nn.Softplus()(b[:, 0].clone())
    return b


torch.manual_seed(0)
print(torch.autograd.functional.jacobian(func, torch.randn(3, 2)))
