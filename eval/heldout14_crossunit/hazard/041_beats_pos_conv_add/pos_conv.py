import torch.nn as nn


class ConvPositionalEmbedding(nn.Module):
    def __init__(self, dim, kernel_size=3, groups=2):
        super().__init__()
        self.conv = nn.Conv1d(dim, dim, kernel_size, padding=kernel_size // 2, groups=groups)
        self.act = nn.GELU()

    def forward(self, x):
        # x: [B, T, C] -> conv over T
        return self.act(self.conv(x.transpose(1, 2))).transpose(1, 2)
