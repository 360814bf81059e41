# intended: AGI001
# Linear probe on a frozen backbone (features under no_grad). I also run a kNN
# monitor on the same features and L2-normalise them in place for it -- before the
# probe's backward. The features never required grad, yet backward fails.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 8))
probe = nn.Linear(8, 3)
opt = torch.optim.SGD(probe.parameters(), lr=0.1)
bank = F.normalize(torch.randn(20, 8), dim=1)
bank_y = torch.randint(0, 3, (20,))
x, y = torch.randn(6, 10), torch.randint(0, 3, (6,))
with torch.no_grad():
    feats = backbone(x)
logits = probe(feats)
loss = F.cross_entropy(logits, y)
feats /= feats.norm(dim=1, keepdim=True)  # culprit
knn_pred = bank_y[(feats @ bank.t()).argmax(1)]
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item(), (knn_pred == y).float().mean().item())
