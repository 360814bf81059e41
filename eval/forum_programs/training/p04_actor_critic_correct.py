# intended: safe
# DDPG update done in the right order, soft target update under no_grad.
import copy
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    actor = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1), nn.Tanh())
    critic = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))
    actor_t, critic_t = copy.deepcopy(actor), copy.deepcopy(critic)
    a_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
    c_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    s, a, r, s2 = torch.randn(16, 3), torch.randn(16, 1), torch.randn(16, 1), torch.randn(16, 3)
    tau, gamma = 0.005, 0.99
    for _ in range(3):
        with torch.no_grad():
            target = r + gamma * critic_t(torch.cat([s2, actor_t(s2)], 1))
        q = critic(torch.cat([s, a], 1))
        c_loss = (q - target).pow(2).mean()
        c_opt.zero_grad()
        c_loss.backward()
        c_opt.step()
        a_loss = -critic(torch.cat([s, actor(s)], 1)).mean()
        a_opt.zero_grad()
        a_loss.backward()
        a_opt.step()
        with torch.no_grad():
            for p, pt in zip(actor.parameters(), actor_t.parameters()):
                pt.mul_(1 - tau).add_(tau * p)
            for p, pt in zip(critic.parameters(), critic_t.parameters()):
                pt.data.copy_(tau * p.data + (1 - tau) * pt.data)
        print(c_loss.item(), a_loss.item())

if __name__ == "__main__":
    main()
