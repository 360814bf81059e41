# source: torchvision FeaturePyramidNetwork + Panoptic-FPN / SemanticFPN segmentation head with forward hooks
# FPN top-down fusion with in-place upsample-add on lateral conv outputs, BN+inplace-ReLU seg head and feature hooks.
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn_relu(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = conv_bn_relu(3, 8, 2)
        self.layer1 = conv_bn_relu(8, 16, 2)
        self.layer2 = conv_bn_relu(16, 24, 2)

    def forward(self, x):
        c1 = self.stem(x)
        c2 = self.layer1(c1)
        return [c1, c2, self.layer2(c2)]


class FPN(nn.Module):
    def __init__(self, in_channels_list, out_channels):
        super().__init__()
        self.inner_blocks = nn.ModuleList([nn.Conv2d(c, out_channels, 1) for c in in_channels_list])
        self.layer_blocks = nn.ModuleList([nn.Conv2d(out_channels, out_channels, 3, padding=1)
                                           for _ in in_channels_list])

    def forward(self, feats):
        last_inner = self.inner_blocks[-1](feats[-1])
        results = [self.layer_blocks[-1](last_inner)]
        for idx in range(len(feats) - 2, -1, -1):
            inner_lateral = self.inner_blocks[idx](feats[idx])
            inner_lateral += F.interpolate(last_inner, size=inner_lateral.shape[-2:], mode="nearest")
            last_inner = inner_lateral
            results.insert(0, self.layer_blocks[idx](last_inner))
        return results


class SemanticFPNHead(nn.Module):
    def __init__(self, ch, num_classes, num_levels):
        super().__init__()
        self.scale_heads = nn.ModuleList([conv_bn_relu(ch, ch) for _ in range(num_levels)])
        self.fuse = nn.Sequential(nn.Conv2d(ch * num_levels, ch, 1, bias=False), nn.BatchNorm2d(ch))
        self.cls = nn.Conv2d(ch, num_classes, 1)

    def forward(self, feats):
        size = feats[0].shape[-2:]
        outs = [F.interpolate(h(f), size=size, mode="bilinear", align_corners=False)
                for h, f in zip(self.scale_heads, feats)]
        x = self.fuse(torch.cat(outs, dim=1))
        x = F.relu(x, inplace=True)
        return self.cls(x)


class SegModel(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.backbone = Backbone()
        self.fpn = FPN([8, 16, 24], 16)
        self.head = SemanticFPNHead(16, num_classes, 3)
        self.stats = {}
        for name, m in [("fpn", self.fpn), ("fuse", self.head.fuse)]:
            m.register_forward_hook(self._make_hook(name))

    def _make_hook(self, name):
        def hook(module, inputs, output):
            out = output[0] if isinstance(output, list) else output
            self.stats[name] = out.detach().abs().mean().item()
        return hook

    def forward(self, x):
        logits = self.head(self.fpn(self.backbone(x)))
        return F.interpolate(logits, size=x.shape[-2:], mode="bilinear", align_corners=False)


def main():
    torch.manual_seed(0)
    model = SegModel()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    images = torch.randn(2, 3, 32, 32)
    masks = torch.randint(0, 4, (2, 32, 32))
    masks[:, :4] = 255
    loss = F.cross_entropy(model(images), masks, ignore_index=255)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item(), model.stats)


if __name__ == "__main__":
    main()
