# source: classification training with hand-rolled label smoothing applied to the one-hot targets
# description: the one-hot target tensor (no grad history) is smoothed in place; predictions are untouched
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
K, eps = 5, 0.1
model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, K))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for it in range(2):
    x = torch.randn(16, 6)
    y = torch.randint(0, K, (16,))
    target = F.one_hot(y, K).float()
    target.mul_(1 - eps).add_(eps / K)
    log_probs = F.log_softmax(model(x), dim=-1)
    loss = -(target * log_probs).sum(dim=-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, loss.item())
