# intended: safe
# 1-D residual block: leaky_relu(inplace=True) on the conv output, out-of-place ELU, then out += x
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResBlock1d(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv1d(c, c, 3, padding=1)
        self.conv2 = nn.Conv1d(c, c, 3, padding=1)

    def forward(self, x):
        out = F.leaky_relu(self.conv1(x), 0.2, inplace=True)
        out = self.conv2(out)
        out = F.elu(out)
        out += x
        return out


def main():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv1d(2, 8, 5, padding=2), ResBlock1d(8), ResBlock1d(8))
    head = nn.Linear(8, 1)
    x = torch.randn(4, 2, 16)
    loss = F.mse_loss(head(net(x).mean(-1)), torch.randn(4, 1))
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
