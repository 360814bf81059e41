# Linear probe: a helper freezes the backbone by turning off requires_grad on each parameter; the
# sigmoid features are then rescaled in place. Nothing in the backbone requires grad, so sigmoid saved
# nothing and the head trains normally.
import torch
import torch.nn as nn


def freeze(module):
    for p in module.parameters():
        p.requires_grad = False
    return module


torch.manual_seed(0)
backbone = freeze(nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 8)))
head = nn.Linear(8, 2)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
x, y = torch.randn(5, 6), torch.tensor([0, 1, 1, 0, 1])
feats = torch.sigmoid(backbone(x))
feats.mul_(2.0).sub_(1.0)
loss = nn.functional.cross_entropy(head(feats), y)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
