# intended: safe
# Batch-hard triplet with squared distances built by broadcasting and .sum(-1);
# masking done in place on the summed distance matrix.
import torch
import torch.nn as nn
import torch.nn.functional as F


def batch_hard(emb, labels, margin=0.3):
    d = (emb.unsqueeze(1) - emb.unsqueeze(0)).pow(2).sum(-1)
    same = labels[:, None] == labels[None, :]
    pos = d.masked_fill(~same, 0.0).max(1).values
    d.masked_fill_(same, float("inf"))
    neg = d.min(1).values
    return F.relu(pos - neg + margin).mean()


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
x = torch.randn(8, 8)
labels = torch.tensor([0, 0, 1, 1, 2, 2, 3, 3])
for step in range(2):
    loss = batch_hard(net(x), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
