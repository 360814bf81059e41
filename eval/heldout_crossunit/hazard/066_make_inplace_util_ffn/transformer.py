import torch.nn as nn


class FFN(nn.Module):
    def __init__(self, d, hidden, dropout=0.1):
        super().__init__()
        self.linear1 = nn.Linear(d, hidden)
        self.activation = nn.ReLU()
        self.dropout = nn.Dropout(dropout)
        self.linear2 = nn.Linear(hidden, d)

    def forward(self, x):
        return x + self.linear2(self.dropout(self.activation(self.linear1(x))))
