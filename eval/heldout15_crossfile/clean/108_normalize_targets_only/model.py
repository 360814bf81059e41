import torch
import torch.nn as nn


class SegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 1, 1))

    def forward(self, x):
        return torch.sigmoid(self.body(x))      # sigmoid saves its result
