# intended: safe
# Partial-label classification: loss on the raw logits, then I mask the disallowed
# classes in the same logits tensor (in place) to compute masked accuracy before backward.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(7, 14), nn.ReLU(), nn.Linear(14, 5))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(20, 7)
y = torch.randint(0, 5, (20,))
allowed = torch.rand(20, 5) > 0.3
allowed[torch.arange(20), y] = True
logits = model(x)
loss = F.cross_entropy(logits, y)
logits.masked_fill_(~allowed, float("-inf"))
acc = (logits.argmax(1) == y).float().mean()
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item(), acc.item())
