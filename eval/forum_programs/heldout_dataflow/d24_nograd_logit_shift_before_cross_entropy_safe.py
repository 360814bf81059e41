# Logits are shifted by their row max in place under no_grad before cross_entropy (a numerically
# "safe" softmax by hand). The linear output is not saved by anything yet, so the write is harmless.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
clf = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 4))
opt = torch.optim.Adam(clf.parameters(), lr=1e-3)
x, y = torch.randn(7, 5), torch.randint(0, 4, (7,))
logits = clf(x)
with torch.no_grad():
    logits.sub_(logits.max(dim=-1, keepdim=True).values)
loss = F.cross_entropy(logits, y)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
