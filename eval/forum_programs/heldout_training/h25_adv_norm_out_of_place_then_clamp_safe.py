# intended: safe
# Actor-critic where I (deliberately) let the advantage carry the critic gradient.
# Advantage normalised out of place, then clipped in place before use.
import torch
import torch.nn as nn


class AC(nn.Module):
    def __init__(self):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 2))
        self.v = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, s):
        return torch.log_softmax(self.pi(s), -1), self.v(s).squeeze(-1)


torch.manual_seed(0)
net = AC()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
s, a, ret = torch.randn(12, 3), torch.randint(0, 2, (12,)), torch.randn(12)
logp, values = net(s)
adv = ret - values
adv_n = (adv - adv.mean()) / (adv.std() + 1e-8)
adv_n.clamp_(-3.0, 3.0)
loss = -(logp.gather(1, a[:, None]).squeeze(1) * adv_n).mean() + 0.5 * adv.pow(2).mean()
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
