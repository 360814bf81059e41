# Per-head temperature: the split pieces go into a Python list and each list slot is rebound to a scaled
# copy. Assigning into the list is not an in-place tensor write.
import torch
import torch.nn as nn

torch.manual_seed(0)
proj = nn.Linear(4, 6)
x = torch.randn(5, 4)
heads = list(torch.softmax(proj(x), dim=-1).split(2, dim=-1))
temps = [0.5, 1.0, 2.0]
for i, t in enumerate(temps):
    heads[i] = heads[i] * t
out = torch.cat(heads, dim=-1)
out.pow(2).sum().backward()
print(proj.weight.grad.norm().item())
