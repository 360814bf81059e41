# source: LinkNet (e-lab/LinkNet, "LinkNet: Exploiting Encoder Representations", DecoderBlock) with `d4 = decoder4(e4) + e3` done in place
# LinkNet-style segmentation net: each decoder block ends in ReLU(inplace) and the encoder skip is added with +=.
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn_relu(cin, cout, k=3, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class DecoderBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = conv_bn_relu(cin, cin // 4, 1)
        self.deconv = nn.Sequential(nn.ConvTranspose2d(cin // 4, cin // 4, 3, 2, 1, output_padding=1, bias=False),
                                    nn.BatchNorm2d(cin // 4), nn.ReLU(inplace=True))
        self.conv2 = conv_bn_relu(cin // 4, cout, 1)

    def forward(self, x):
        return self.conv2(self.deconv(self.conv1(x)))


class LinkNet(nn.Module):
    def __init__(self, n_classes=3, widths=(16, 32, 64, 128)):
        super().__init__()
        self.stem = conv_bn_relu(3, widths[0], 3, 2)
        self.encoders = nn.ModuleList([conv_bn_relu(widths[max(i - 1, 0)], w, 3, 1 if i == 0 else 2)
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
            d += skip  # culprit
        return self.head(d)


torch.manual_seed(0)
model = LinkNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
img, mask = torch.randn(2, 3, 32, 32), torch.randint(0, 3, (2, 32, 32))
loss = F.cross_entropy(model(img), mask)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
