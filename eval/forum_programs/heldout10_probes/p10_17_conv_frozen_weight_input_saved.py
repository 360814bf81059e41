# probe: conv2d saves its input even when its weight is frozen (only the input needs grad); clamping that input afterwards makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


class FrozenStem(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.conv.requires_grad_(False)

    def forward(self, x):
        return self.conv(x)


def main():
    stem = FrozenStem()
    images = torch.rand(2, 3, 8, 8)
    delta = torch.zeros(2, 3, 8, 8, requires_grad=True)
    adv = images + delta
    feats = stem(adv)
    adv.clamp_(0.0, 1.0)  # culprit
    loss = feats.pow(2).mean()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
