import torch

from networks import Actor, QNet


class DDPG:
    def __init__(self, obs_dim, act_dim, gamma=0.99):
        self.pi, self.q = Actor(obs_dim, act_dim), QNet(obs_dim, act_dim)
        self.pi_optimizer = torch.optim.Adam(self.pi.parameters(), lr=1e-3)
        self.q_optimizer = torch.optim.Adam(self.q.parameters(), lr=1e-3)
        self.gamma = gamma

    def update(self, o, a, r, o2, d):
        q = self.q(o, a)
        with torch.no_grad():
            backup = r + self.gamma * (1 - d) * self.q(o2, self.pi(o2))
        loss_q = ((q - backup) ** 2).mean()
        loss_pi = -self.q(o, self.pi(o)).mean()
        self.pi_optimizer.zero_grad()
        loss_pi.backward()
        self.pi_optimizer.step()
        self.q_optimizer.zero_grad()
        loss_q.backward()
        self.q_optimizer.step()
