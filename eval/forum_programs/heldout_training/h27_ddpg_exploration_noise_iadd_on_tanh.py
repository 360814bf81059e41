# intended: AGI001
# DDPG: the actor ends in tanh, I add Gaussian exploration noise to the action in
# place, and (mistakenly) use the same action for the actor loss.
import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, s):
        return torch.tanh(self.net(s))


torch.manual_seed(0)
actor = Actor()
critic = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 1))
opt_a = torch.optim.Adam(actor.parameters(), lr=1e-3)
s = torch.randn(8, 3)
action = actor(s)
action += 0.1 * torch.randn_like(action)  # culprit
q = critic(torch.cat([s, action], dim=1))
actor_loss = -q.mean()
opt_a.zero_grad()
actor_loss.backward()
opt_a.step()
print(actor_loss.item())
