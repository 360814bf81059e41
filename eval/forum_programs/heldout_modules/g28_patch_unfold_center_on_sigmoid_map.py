# Local contrast normalisation on a sigmoid feature map via unfold views, centred in place
import torch
import torch.nn as nn


class LocalContrast(nn.Module):
    def __init__(self, c, k=2):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1)
        self.k = k

    def forward(self, img):
        feat = torch.sigmoid(self.conv(img))
        patches = feat.unfold(2, self.k, self.k).unfold(3, self.k, self.k)
        patches -= patches.mean(dim=(-1, -2), keepdim=True)  # culprit
        return feat


torch.manual_seed(0)
lc = LocalContrast(2)
out = lc(torch.randn(1, 2, 4, 4))
out.pow(2).sum().backward()
print(lc.conv.weight.grad.norm())
