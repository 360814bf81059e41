import torch
import torch.nn as nn

from ops import conv1d_step


class CausalConv1dStep(nn.Module):
    def __init__(self, features, kernel_size):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1, kernel_size, features) * 0.1)
        self.kernel_size = kernel_size

    def empty_state(self, batch, features):
        return torch.zeros(batch, self.kernel_size, features)

    def step(self, x, conv_state):
        return conv1d_step(x, conv_state, self.weight)
