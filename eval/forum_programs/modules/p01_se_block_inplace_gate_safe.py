# SE block gating its input in-place with x *= s (no error: pooling does not save x)
import torch
import torch.nn as nn


class SqueezeExcite(nn.Module):
    def __init__(self, ch, r=4):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc1 = nn.Conv2d(ch, ch // r, 1)
        self.fc2 = nn.Conv2d(ch // r, ch, 1)

    def forward(self, x):
        s = self.pool(x)
        s = torch.relu(self.fc1(s))
        s = torch.sigmoid(self.fc2(s))
        x *= s
        return x


def main():
    torch.manual_seed(0)
    conv = nn.Conv2d(3, 8, 3, padding=1)
    se = SqueezeExcite(8)
    x = torch.randn(2, 3, 8, 8)
    y = se(conv(x))
    y.mean().backward()
    print("ok", conv.weight.grad.norm().item())


if __name__ == "__main__":
    main()
