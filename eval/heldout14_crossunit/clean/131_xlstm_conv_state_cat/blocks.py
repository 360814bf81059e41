import torch
import torch.nn as nn

from ops import update_conv_state


class CausalConv1dStep(nn.Module):
    def __init__(self, features, kernel_size):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1, kernel_size, features) * 0.1)
        self.kernel_size = kernel_size

    def empty_state(self, batch, features):
        return torch.zeros(batch, self.kernel_size, features)

    def step(self, x, conv_state):
        conv_state = update_conv_state(conv_state, x)
        y = (conv_state * self.weight).sum(dim=1)
        return y, conv_state
