# probe: avg_pool2d saves its input even though its gradient only needs the shape; relu_ on the pooled feature map afterwards makes it stale
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def pooled_features(feat):
    return F.avg_pool2d(feat, 2)


def main():
    conv = nn.Conv2d(3, 4, 3, padding=1)
    x = torch.randn(2, 3, 8, 8)
    feat = conv(x)
    pooled = pooled_features(feat)
    feat.relu_()  # culprit
    loss = pooled.pow(2).mean() + feat.mean()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
