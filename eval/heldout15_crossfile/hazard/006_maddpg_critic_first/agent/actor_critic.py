import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, 32)
        self.out = nn.Linear(32, act_dim)

    def forward(self, o):
        return torch.tanh(self.out(torch.relu(self.fc1(o))))


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim + act_dim, 32)
        self.q_out = nn.Linear(32, 1)

    def forward(self, o, u):
        x = torch.relu(self.fc1(torch.cat([o, u], dim=1)))
        return self.q_out(x)
