# intended: AGI003 -- torch says clean: tensor_split returns plain slices, not a multi-view op
# Multi-head classifier: one Linear produces all heads, torch.tensor_split cuts them,
# and each head gets its own temperature applied in place.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
fc = nn.Linear(16, 9)
temps = [1.0, 2.0, 0.5]
opt = torch.optim.SGD([*backbone.parameters(), *fc.parameters()], lr=0.1)
x = torch.randn(6, 8)
ys = [torch.randint(0, 3, (6,)) for _ in range(3)]
out = fc(backbone(x))
heads = torch.tensor_split(out, 3, dim=1)
loss = 0.0
for hd, t, y in zip(heads, temps, ys):
    hd.div_(t)
    loss = loss + F.cross_entropy(hd, y)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
