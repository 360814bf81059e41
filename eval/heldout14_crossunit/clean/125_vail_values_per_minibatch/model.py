import torch.nn as nn


class Critic(nn.Module):
    def __init__(self, num_inputs, hidden):
        super().__init__()
        self.fc1 = nn.Linear(num_inputs, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.fc3 = nn.Linear(hidden, 1)

    def forward(self, x):
        x = self.fc1(x).tanh()
        x = self.fc2(x).tanh()
        return self.fc3(x)
