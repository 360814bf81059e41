# intended: AGI001
# Batch-hard triplet loss: pairwise distances with torch.cdist, then positives and
# the diagonal masked in place so that min() picks the hardest negative.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
x = torch.randn(8, 8)
labels = torch.tensor([0, 0, 1, 1, 2, 2, 3, 3])
emb = net(x)
dist = torch.cdist(emb, emb)
same = labels[:, None] == labels[None, :]
hardest_pos = (dist * same.float()).max(dim=1).values
dist.masked_fill_(same, float("inf"))  # culprit
hardest_neg = dist.min(dim=1).values
loss = F.relu(hardest_pos - hardest_neg + 0.3).mean()
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
