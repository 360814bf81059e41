import torch
import torch.nn as nn


class Dynamics(nn.Module):
    def __init__(self, state_dim, act_dim):
        super().__init__()
        self.fc = nn.Linear(state_dim + act_dim, state_dim)

    def forward(self, s, a):
        return torch.tanh(self.fc(torch.cat([s, a], dim=-1)))


class ActionModel(nn.Module):
    def __init__(self, state_dim, act_dim):
        super().__init__()
        self.fc = nn.Linear(state_dim, act_dim)

    def forward(self, s):
        return torch.tanh(self.fc(s))


class ValueModel(nn.Module):
    def __init__(self, state_dim):
        super().__init__()
        self.fc1 = nn.Linear(state_dim, 16)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, s):
        return self.fc2(torch.relu(self.fc1(s)))
