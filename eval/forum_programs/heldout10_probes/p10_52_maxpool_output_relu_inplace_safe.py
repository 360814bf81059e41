# probe: max_pool2d saves its input and indices, not its output, so F.relu(inplace=True) on the pooled output is fine
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def down(feat):
    pooled = F.max_pool2d(feat, 2)
    return F.relu(pooled, inplace=True)


def main():
    conv = nn.Conv2d(3, 4, 3, padding=1)
    x = torch.randn(2, 3, 8, 8)
    out = down(conv(x))
    loss = out.pow(2).mean()
    loss.backward()
    print("grad", conv.weight.grad.norm().item())


if __name__ == "__main__":
    main()
