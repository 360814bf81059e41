"""Random features with a trainable basis: ``torch.einsum`` needs the centred features to compute the
basis's gradient, saves them, and scaling them in place afterwards breaks backward."""
import torch
from torch import nn


class RandomFeatures(nn.Module):
    def __init__(self, dim, num_features=6):
        super().__init__()
        self.basis = nn.Parameter(torch.randn(dim, num_features))

    def forward(self, x):
        centred = x - x.mean(dim=0)
        projected = torch.einsum("bd,dk->bk", centred, self.basis)
        centred = centred.mul(0.5)  # expect: AGI001
        return projected.cos(), centred


def run():
    torch.manual_seed(0)
    features, _ = RandomFeatures(4)(torch.randn(3, 4))
    features.sum().backward()
    return features


if __name__ == "__main__":
    print(run())
