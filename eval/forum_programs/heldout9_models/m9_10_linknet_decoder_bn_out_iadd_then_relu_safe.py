# source: LinkNet/D-LinkNet style decoder where the last decoder conv ends in BN and ReLU is applied after the skip add
# Segmentation decoder adding the encoder skip in place onto a BatchNorm output, then an in-place ReLU.
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn(cin, cout, k=3, stride=1, act=True):
    layers = [nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout)]
    return nn.Sequential(*layers, nn.ReLU(inplace=True)) if act else nn.Sequential(*layers)


class DecoderBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = conv_bn(cin, cin // 4, 1)
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.conv2 = conv_bn(cin // 4, cout, 3, act=False)

    def forward(self, x):
        return self.conv2(self.up(self.conv1(x)))


class LinkNet(nn.Module):
    def __init__(self, n_classes=3, widths=(16, 32, 64, 128)):
        super().__init__()
        self.stem = conv_bn(3, widths[0], 3, 2)
        self.encoders = nn.ModuleList([conv_bn(widths[max(i - 1, 0)], w, 3, 1 if i == 0 else 2)
                                       for i, w in enumerate(widths)])
        self.decoders = nn.ModuleList([DecoderBlock(widths[i], widths[i - 1]) for i in range(len(widths) - 1, 0, -1)])
        self.head = nn.Sequential(nn.ConvTranspose2d(widths[0], 8, 2, 2), nn.ReLU(inplace=True), nn.Conv2d(8, n_classes, 1))

    def forward(self, x):
        x = self.stem(x)
        feats = []
        for enc in self.encoders:
            x = enc(x)
            feats.append(x)
        d = feats[-1]
        for dec, skip in zip(self.decoders, reversed(feats[:-1])):
            d = dec(d)
            d += skip
            d = F.relu(d, inplace=True)
        return self.head(d)


torch.manual_seed(0)
model = LinkNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
img, mask = torch.randn(2, 3, 32, 32), torch.randint(0, 3, (2, 32, 32))
for _ in range(2):
    loss = F.cross_entropy(model(img), mask)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
