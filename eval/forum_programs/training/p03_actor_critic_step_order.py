# intended: AGI001
# DDPG-style update: critic step happens before actor loss backward,
# actor loss was computed through the critic before the step.
import torch
import torch.nn as nn

class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1), nn.Tanh())
    def forward(self, s):
        return self.net(s)

class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, s, a):
        return self.net(torch.cat([s, a], dim=1))

def update(actor, critic, a_opt, c_opt, s, a, r):
    q = critic(s, a)
    critic_loss = (q - r).pow(2).mean()
    actor_loss = -critic(s, actor(s)).mean()
    c_opt.zero_grad()
    critic_loss.backward()
    c_opt.step()  # culprit
    a_opt.zero_grad()
    actor_loss.backward()
    a_opt.step()
    return critic_loss.item(), actor_loss.item()

def main():
    torch.manual_seed(0)
    actor, critic = Actor(), Critic()
    a_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
    c_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    s, a, r = torch.randn(16, 3), torch.randn(16, 1), torch.randn(16, 1)
    for _ in range(2):
        print(update(actor, critic, a_opt, c_opt, s, a, r))

if __name__ == "__main__":
    main()
