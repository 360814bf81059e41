# timm-style MLP: act_layer = partial(nn.ReLU, inplace=True) after BatchNorm1d. batch_norm saves its
# input, not its output, so the in-place ReLU is fine.
from functools import partial

import torch
import torch.nn as nn


def mlp(dims, act_layer=partial(nn.ReLU, inplace=True)):
    layers = []
    for a, b in zip(dims[:-1], dims[1:]):
        layers += [nn.Linear(a, b), nn.BatchNorm1d(b), act_layer()]
    return nn.Sequential(*layers[:-2])


torch.manual_seed(0)
net = mlp([5, 16, 16, 3])
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(2):
    x, y = torch.randn(8, 5), torch.randint(0, 3, (8,))
    loss = nn.functional.cross_entropy(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
