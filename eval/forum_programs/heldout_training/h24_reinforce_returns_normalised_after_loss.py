# intended: AGI001
# REINFORCE. I compute the policy loss with the raw discounted returns, then
# normalise the returns in place to log them -- and backward fails. The returns
# don't even require grad!
import torch
import torch.nn as nn

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2), nn.LogSoftmax(dim=-1))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
states = torch.randn(10, 4)
actions = torch.randint(0, 2, (10,))
rewards = torch.rand(10)
returns = torch.zeros(10)
g = 0.0
for t in reversed(range(10)):
    g = rewards[t] + 0.99 * g
    returns[t] = g
logp = policy(states).gather(1, actions[:, None]).squeeze(1)
loss = -(logp * returns).sum()
returns -= returns.mean()  # culprit
returns /= returns.std() + 1e-8  # culprit
print("normalised returns", returns[:3])
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
