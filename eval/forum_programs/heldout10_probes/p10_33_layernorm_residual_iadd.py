# probe: layer_norm saves its input; adding the residual into that input with += makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


class PreNormBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc_in = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Linear(dim, dim)

    def forward(self, x):
        h = self.fc_in(x)
        y = self.ff(self.norm(h))
        h += y  # culprit
        return h


def main():
    block = PreNormBlock(6)
    x = torch.randn(3, 6)
    loss = block(x).pow(2).mean()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
