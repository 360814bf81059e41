# intended: safe
# DQN without a separate target net (and I forgot to detach): the bootstrap value is
# max over actions, terminal entries zeroed in place before building the target.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
qnet = nn.Sequential(nn.Linear(4, 24), nn.ReLU(), nn.Linear(24, 3))
opt = torch.optim.Adam(qnet.parameters(), lr=1e-3)
s, s2 = torch.randn(12, 4), torch.randn(12, 4)
a = torch.randint(0, 3, (12,))
r = torch.randn(12)
done = torch.rand(12) < 0.3
for it in range(2):
    q = qnet(s).gather(1, a[:, None]).squeeze(1)
    next_q = qnet(s2).max(dim=1)[0]
    next_q[done] = 0.0
    target = r + 0.9 * next_q
    loss = F.mse_loss(q, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, loss.item())
