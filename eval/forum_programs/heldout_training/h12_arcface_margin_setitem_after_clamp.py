# intended: AGI001
# ArcFace: theta = acos(clamped cos), then I put cos(theta + m) back into the target
# positions of the same cosine matrix with fancy indexing.
import torch
import torch.nn as nn
import torch.nn.functional as F


def arcface_logits(emb, W, labels, s=30.0, m=0.5):
    cos = F.normalize(emb) @ F.normalize(W).t()
    theta = torch.acos(torch.clamp(cos, -1 + 1e-6, 1 - 1e-6))
    idx = torch.arange(emb.size(0))
    cos[idx, labels] = torch.cos(theta[idx, labels] + m)  # culprit
    return s * cos


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(12, 8))
W = nn.Parameter(torch.randn(5, 8))
opt = torch.optim.SGD([*net.parameters(), W], lr=0.1)
x, y = torch.randn(6, 12), torch.randint(0, 5, (6,))
loss = F.cross_entropy(arcface_logits(net(x), W, y), y)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
