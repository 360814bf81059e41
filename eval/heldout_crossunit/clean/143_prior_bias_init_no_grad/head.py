import torch.nn as nn

from init_utils import init_prior_bias


class ClsHead(nn.Module):
    def __init__(self, c, n_cls):
        super().__init__()
        self.cls = nn.Conv2d(c, n_cls, 3, padding=1)
        init_prior_bias(self.cls)

    def forward(self, x):
        return self.cls(x)
