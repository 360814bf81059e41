# intended: AGI001
# A2C with a bounded critic (tanh head). For terminal states I zero the bootstrapped
# value in place with a boolean mask before computing the TD target.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1), nn.Tanh())

    def forward(self, s):
        return self.body(s)


torch.manual_seed(0)
critic = Critic()
opt = torch.optim.RMSprop(critic.parameters(), lr=1e-3)
s, s_next = torch.randn(8, 5), torch.randn(8, 5)
r = torch.randn(8)
dones = torch.tensor([0, 0, 1, 0, 1, 0, 0, 1], dtype=torch.bool)
v = critic(s).squeeze(-1)
v_next = critic(s_next).squeeze(-1)
v_next[dones] = 0.0  # culprit
target = r + 0.99 * v_next
loss = F.smooth_l1_loss(v, target)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
