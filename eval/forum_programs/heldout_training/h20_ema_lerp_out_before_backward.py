# intended: AGI001
# BYOL-style target network updated with torch.lerp(..., out=) under no_grad.
# The update sits before loss.backward(), and the target branch was not detached.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
online = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 8))
predictor = nn.Linear(8, 8)
target = copy.deepcopy(online)
opt = torch.optim.SGD([*online.parameters(), *predictor.parameters()], lr=0.05)
x = torch.randn(6, 8)
for step in range(2):
    v1 = x + 0.1 * torch.randn_like(x)
    v2 = x + 0.1 * torch.randn_like(x)
    p = F.normalize(predictor(online(v1)), dim=1)
    z = F.normalize(target(v2), dim=1)
    loss = 2 - 2 * (p * z).sum(1).mean()
    with torch.no_grad():
        for tp, op in zip(target.parameters(), online.parameters()):
            torch.lerp(tp, op, 0.01, out=tp)  # culprit
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
