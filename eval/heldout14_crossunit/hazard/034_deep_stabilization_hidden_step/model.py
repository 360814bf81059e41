import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, din, hidden, batch):
        super().__init__()
        self.LSTM = nn.LSTMCell(din, hidden)
        self.fc = nn.Linear(hidden, 4)
        self.hidden, self.batch = hidden, batch
        self.init_hidden()

    def init_hidden(self):
        self.hx = torch.zeros(self.batch, self.hidden)
        self.cx = torch.zeros(self.batch, self.hidden)

    def forward(self, x):
        self.hx, self.cx = self.LSTM(x, (self.hx, self.cx))
        return self.fc(self.hx)
