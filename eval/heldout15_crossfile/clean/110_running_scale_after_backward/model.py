import torch.nn as nn


class ScaledEncoder(nn.Module):
    def __init__(self, cin, dim, scaler):
        super().__init__()
        self.fc = nn.Linear(cin, dim)
        self.scaler = scaler

    def forward(self, x):
        h = self.fc(x)
        return h / self.scaler.scale, h        # div saves the divisor
