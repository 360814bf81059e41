# Source: pytorch/pytorch#5687 ("You can't do an inplace-addition after an inplace relu"),
# in the shape of FiLM conditioning applied by a separate module to a ReLU block's output.
# Unit kind: class -- Block ends with ReLU; FiLM modulates that output in place.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.relu(self.conv(x))


class FiLM(nn.Module):
    def __init__(self, cond_dim, c):
        super().__init__()
        self.to_gamma_beta = nn.Linear(cond_dim, 2 * c)

    def forward(self, h, cond):
        gamma, beta = self.to_gamma_beta(cond)[:, :, None, None].chunk(2, dim=1)
        return h.mul_(gamma).add_(beta)  # culprit


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block, self.film = Block(4), FiLM(3, 4)

    def forward(self, x, cond):
        return self.film(self.block(x), cond)


Net()(torch.randn(2, 4, 5, 5), torch.randn(2, 3)).sum().backward()
print("done")
