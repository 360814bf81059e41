# source: classification training with hand-rolled label smoothing applied to predicted probabilities
# description: softmax output is smoothed in place with mul_/add_, but softmax saved its output for backward
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
    probs = F.softmax(model(x), dim=-1)
    probs.mul_(1 - eps).add_(eps / K)  # culprit
    loss = F.nll_loss(probs.log(), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, loss.item())
