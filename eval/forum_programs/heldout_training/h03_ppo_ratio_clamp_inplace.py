# intended: AGI001
# PPO clipped objective. I clamp the probability ratio in place to save memory;
# "one of the variables needed for gradient computation has been modified".
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))
opt = torch.optim.Adam(policy.parameters(), lr=3e-4)
obs = torch.randn(16, 4)
with torch.no_grad():
    dist = Categorical(logits=policy(obs))
    actions = dist.sample()
    old_logp = dist.log_prob(actions)
adv = torch.randn(16)
clip = 0.2
for epoch in range(2):
    new_logp = Categorical(logits=policy(obs)).log_prob(actions)
    ratio = torch.exp(new_logp - old_logp)
    surr1 = ratio * adv
    clipped = ratio.clamp_(1 - clip, 1 + clip)  # culprit
    surr2 = clipped * adv
    loss = -torch.min(surr1, surr2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, loss.item())
