# probe: x * noise saves the no-grad noise buffer; re-sampling that buffer with normal_ on a second forward makes the first call's copy stale
import torch
import torch.nn as nn

torch.manual_seed(0)


class NoisyLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.register_buffer("noise", torch.zeros(dim))

    def forward(self, x):
        h = self.fc(x)
        self.noise.normal_()  # culprit
        return h + 0.1 * (h * self.noise)


def main():
    layer = NoisyLayer(5)
    x1 = torch.randn(2, 5)
    x2 = torch.randn(2, 5)
    out1 = layer(x1)
    out2 = layer(x2)
    loss = out1.sum() + out2.sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
