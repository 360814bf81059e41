# source: https://github.com/RangiLyu/nanodet/pull/493
# NanoDet FPN neck: ConvModule laterals end in LeakyReLU(inplace=True); top-down path does laterals[i-1] += F.interpolate(...)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

activations = {
    "ReLU": nn.ReLU,
    "LeakyReLU": nn.LeakyReLU,
    "ReLU6": nn.ReLU6,
}


def act_layers(name):
    if name == "LeakyReLU":
        return nn.LeakyReLU(negative_slope=0.1, inplace=True)
    return activations[name](inplace=True)


class ConvModule(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, padding=0, norm=True, activation="LeakyReLU"):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=padding, bias=not norm)
        self.norm = nn.BatchNorm2d(out_channels) if norm else None
        self.act = act_layers(activation) if activation else None

    def forward(self, x):
        x = self.conv(x)
        if self.norm is not None:
            x = self.norm(x)
        if self.act is not None:
            x = self.act(x)
        return x


class FPN(nn.Module):
    def __init__(self, in_channels, out_channels, num_outs, activation="LeakyReLU"):
        super().__init__()
        self.in_channels = in_channels
        self.num_ins = len(in_channels)
        self.num_outs = num_outs
        self.lateral_convs = nn.ModuleList()
        for i in range(self.num_ins):
            self.lateral_convs.append(
                ConvModule(in_channels[i], out_channels, 1, activation=activation)
            )

    def forward(self, inputs):
        assert len(inputs) == len(self.in_channels)
        laterals = [lateral_conv(inputs[i]) for i, lateral_conv in enumerate(self.lateral_convs)]

        # build top-down path
        used_backbone_levels = len(laterals)
        for i in range(used_backbone_levels - 1, 0, -1):
            laterals[i - 1] += F.interpolate(laterals[i], scale_factor=2, mode="bilinear")  # culprit

        outs = [laterals[i] for i in range(used_backbone_levels)]
        return tuple(outs)


class TinyBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.stage2 = nn.Conv2d(16, 24, 3, stride=2, padding=1)
        self.stage3 = nn.Conv2d(24, 32, 3, stride=2, padding=1)
        self.stage4 = nn.Conv2d(32, 48, 3, stride=2, padding=1)

    def forward(self, x):
        x = F.relu(self.stem(x))
        c2 = F.relu(self.stage2(x))
        c3 = F.relu(self.stage3(c2))
        c4 = F.relu(self.stage4(c3))
        return [c2, c3, c4]


class Head(nn.Module):
    def __init__(self, ch, num_classes):
        super().__init__()
        self.cls = nn.Conv2d(ch, num_classes + 4, 1)

    def forward(self, feats):
        return [self.cls(f).flatten(2) for f in feats]


backbone = TinyBackbone()
fpn = FPN(in_channels=[24, 32, 48], out_channels=32, num_outs=3, activation="LeakyReLU")
head = Head(32, 4)
params = list(backbone.parameters()) + list(fpn.parameters()) + list(head.parameters())
optimizer = torch.optim.SGD(params, lr=0.01, momentum=0.9)

imgs = torch.randn(2, 3, 64, 64)
preds = head(fpn(backbone(imgs)))
loss = sum(p.pow(2).mean() for p in preds)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("loss", loss.item())
