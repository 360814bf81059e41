# probe: nn.ReLU(inplace=True) placed after nn.Sigmoid overwrites the sigmoid output that SigmoidBackward saved
import torch
import torch.nn as nn

torch.manual_seed(0)


class GateHead(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.proj = nn.Linear(dim_in, dim_out)
        self.squash = nn.Sigmoid()
        self.rectify = nn.ReLU(inplace=True)

    def forward(self, x):
        h = self.proj(x)
        g = self.squash(h)
        g = self.rectify(g)  # culprit
        return g


def main():
    head = GateHead(6, 4)
    x = torch.randn(8, 6)
    target = torch.rand(8, 4)
    out = head(x)
    loss = (out - target).pow(2).mean()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
