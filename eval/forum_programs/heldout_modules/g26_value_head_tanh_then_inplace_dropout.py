# Bounded value head: Tanh followed by an in-place Dropout inside an nn.Sequential
import torch
import torch.nn as nn


def value_head(d):
    return nn.Sequential(
        nn.Linear(d, d),
        nn.Tanh(),
        nn.Dropout(p=0.1, inplace=True),  # culprit
        nn.Linear(d, 1),
    )


torch.manual_seed(0)
head = value_head(5).train()
v = head(torch.randn(3, 5))
v.sum().backward()
print(head[0].weight.grad.norm())
