import torch.nn as nn


class Act(nn.Module):
    """Activation wrapper in the style of osmr/imgclsmob's self.activ = nn.ReLU(inplace=True)."""

    def __init__(self):
        super().__init__()
        self.activ = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.activ(x)
