# intended: safe
# PPO value clipping done in place on the critic's prediction (the output of a
# Linear layer, squeezed), with tensor bounds around the old values.
import torch
import torch.nn as nn

torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
obs, returns = torch.randn(16, 4), torch.randn(16)
with torch.no_grad():
    old_v = critic(obs).squeeze(-1)
eps = 0.2
for epoch in range(2):
    v = critic(obs).squeeze(-1)
    v.clamp_(min=old_v - eps, max=old_v + eps)
    v_loss = 0.5 * (v - returns).pow(2).mean()
    opt.zero_grad()
    v_loss.backward()
    opt.step()
    print(epoch, v_loss.item())
