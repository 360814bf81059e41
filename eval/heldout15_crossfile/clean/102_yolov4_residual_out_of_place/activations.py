import torch.nn as nn


class Mish(nn.Module):
    def forward(self, x):
        return x * nn.functional.softplus(x).tanh()


ACTIVATE = {
    "relu": nn.ReLU,
    "leaky": lambda: nn.LeakyReLU(0.1),
    "mish": Mish,
}
