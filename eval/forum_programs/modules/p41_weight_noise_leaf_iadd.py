# weight-noise regularisation done by adding noise to the parameter in forward
import torch
import torch.nn as nn
import torch.nn.functional as F


class NoisyLinear(nn.Linear):
    def __init__(self, n_in, n_out, sigma=0.01):
        super().__init__(n_in, n_out)
        self.sigma = sigma

    def forward(self, x):
        w = self.weight
        if self.training:
            w += self.sigma * torch.randn_like(w)  # culprit
        return F.linear(x, w, self.bias)


def main():
    torch.manual_seed(0)
    layer = NoisyLinear(4, 2)
    layer(torch.randn(3, 4)).sum().backward()
    print(layer.weight.grad)


if __name__ == "__main__":
    main()
