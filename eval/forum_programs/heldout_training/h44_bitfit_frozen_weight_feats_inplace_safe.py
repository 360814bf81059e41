# intended: safe
# BitFit-style tuning: only the bias of the head is trained, its weight is frozen.
# The (no_grad) backbone features are normalised in place for a kNN monitor after
# the head's forward; nothing needs them for backward because the weight is frozen.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 8))
head = nn.Linear(8, 3)
head.weight.requires_grad_(False)
opt = torch.optim.SGD([head.bias], lr=0.1)
x, y = torch.randn(6, 10), torch.randint(0, 3, (6,))
for step in range(2):
    with torch.no_grad():
        feats = backbone(x)
    loss = F.cross_entropy(head(feats), y)
    feats /= feats.norm(dim=1, keepdim=True)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item(), head.bias.detach().tolist())
