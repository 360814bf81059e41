# intended: safe
# hand-written LayerNorm: centre out of place, then divide / scale / shift the fresh tensor in place
import torch
import torch.nn as nn


class ManualLayerNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(d))
        self.beta = nn.Parameter(torch.zeros(d))
        self.eps = eps

    def forward(self, x):
        mean = x.mean(-1, keepdim=True)
        std = x.std(-1, keepdim=True, unbiased=False)
        x = x - mean
        x /= std + self.eps
        x *= self.gamma
        x += self.beta
        return x


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 8), ManualLayerNorm(8), nn.GELU(), nn.Linear(8, 2))
    x, y = torch.randn(4, 5), torch.randn(4, 2)
    loss = (model(x) - y).pow(2).mean()
    loss.backward()
    print(model[1].gamma.grad)


if __name__ == "__main__":
    main()
