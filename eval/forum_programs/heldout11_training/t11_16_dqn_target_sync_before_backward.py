# source: DQN training step with a hard target-network sync every C steps (target not computed under no_grad)
# description: target-net weights are copied in place after the TD target used them but before loss.backward()
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
online = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
target_net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
target_net.load_state_dict(online.state_dict())
opt = torch.optim.Adam(online.parameters(), lr=1e-3)
gamma, sync_every = 0.99, 2

for step in range(2):
    s = torch.randn(16, 4)
    a = torch.randint(0, 2, (16, 1))
    r = torch.randn(16)
    s2 = torch.randn(16, 4)
    done = torch.zeros(16)
    q = online(s).gather(1, a).squeeze(1)
    next_q = target_net(s2).max(dim=1).values
    td_target = r + gamma * (1 - done) * next_q
    loss = F.smooth_l1_loss(q, td_target)
    if step % sync_every == 0:
        with torch.no_grad():
            for tp, p in zip(target_net.parameters(), online.parameters()):
                tp.copy_(p)  # culprit
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
