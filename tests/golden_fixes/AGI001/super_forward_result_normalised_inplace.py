"""An embedding net whose L2-normalised subclass calls ``super().forward(x)`` and divides the result in
place by its own norm: ``output.pow(2)`` saved ``output``, which the ``/=`` then overwrites."""
import torch
from torch import nn


class EmbeddingNet(nn.Module):
    def __init__(self, dim, out):
        super().__init__()
        self.fc = nn.Linear(dim, out)

    def forward(self, x):
        return self.fc(x)


class L2EmbeddingNet(EmbeddingNet):
    def forward(self, x):
        output = super().forward(x)
        output = output / output.pow(2).sum(1, keepdim=True).sqrt()  # expect: AGI001
        return output


def run():
    torch.manual_seed(0)
    model = L2EmbeddingNet(4, 3)
    out = model(torch.randn(5, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
