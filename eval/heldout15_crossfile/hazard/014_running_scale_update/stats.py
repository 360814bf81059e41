import torch
import torch.nn as nn


class RunningScale(nn.Module):
    def __init__(self, dim, momentum=0.99):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("scale", torch.ones(dim))
        self.register_buffer("num_updates", torch.zeros((), dtype=torch.long))

    def update(self, batch):
        self.scale.mul_(self.momentum)  # culprit
        self.scale.add_((1.0 - self.momentum) * batch.std(dim=0))
        self.num_updates += 1
