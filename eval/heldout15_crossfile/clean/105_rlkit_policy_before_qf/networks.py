import torch
import torch.nn as nn


class Policy(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, act_dim), nn.Tanh())

    def forward(self, obs):
        return self.net(obs)


class QFunction(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim + act_dim, 16)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, obs, act):
        h = torch.relu(self.fc1(torch.cat([obs, act], dim=1)))
        return self.fc2(h)          # linear saves its weight for the input's gradient
