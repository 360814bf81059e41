# source: https://github.com/open-mmlab/mmdetection/pull/7175 and /pull/9450 (pre-fix in-place sums with the default act_cfg=None)
# PAFPN neck with the default linear ConvModules: both laterals[i - 1] += ... and inter_outs[i + 1] += ... stay in place.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvModule(nn.Module):
    def __init__(self, in_ch, out_ch, k, stride=1, padding=0, act_cfg=None):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, out_ch, k, stride=stride, padding=padding)
        self.activate = nn.ReLU(inplace=False) if act_cfg is not None else None

    def forward(self, x):
        x = self.conv(x)
        return self.activate(x) if self.activate is not None else x


class PAFPN(nn.Module):
    def __init__(self, in_channels, out_channels, act_cfg=None):
        super().__init__()
        self.lateral_convs = nn.ModuleList([ConvModule(c, out_channels, 1, act_cfg=act_cfg) for c in in_channels])
        self.fpn_convs = nn.ModuleList([ConvModule(out_channels, out_channels, 3, padding=1, act_cfg=act_cfg)
                                        for _ in in_channels])
        self.downsample_convs = nn.ModuleList([ConvModule(out_channels, out_channels, 3, 2, 1, act_cfg=act_cfg)
                                               for _ in in_channels[1:]])
        self.pafpn_convs = nn.ModuleList([ConvModule(out_channels, out_channels, 3, padding=1, act_cfg=act_cfg)
                                          for _ in in_channels[1:]])

    def forward(self, inputs):
        laterals = [lateral_conv(inputs[i]) for i, lateral_conv in enumerate(self.lateral_convs)]
        used_backbone_levels = len(laterals)
        for i in range(used_backbone_levels - 1, 0, -1):
            prev_shape = laterals[i - 1].shape[2:]
            laterals[i - 1] += F.interpolate(laterals[i], size=prev_shape, mode='nearest')
        inter_outs = [self.fpn_convs[i](laterals[i]) for i in range(used_backbone_levels)]
        for i in range(0, used_backbone_levels - 1):
            inter_outs[i + 1] += self.downsample_convs[i](inter_outs[i])
        outs = [inter_outs[0]]
        outs.extend([self.pafpn_convs[i - 1](inter_outs[i]) for i in range(1, used_backbone_levels)])
        outs.append(F.max_pool2d(outs[-1], 1, stride=2))
        return tuple(outs)


def main():
    torch.manual_seed(0)
    neck = PAFPN([4, 8, 16], 8)
    opt = torch.optim.SGD(neck.parameters(), lr=0.02, momentum=0.9)
    feats = [torch.randn(1, 4, 16, 16), torch.randn(1, 8, 8, 8), torch.randn(1, 16, 4, 4)]
    for it in range(2):
        opt.zero_grad()
        outs = neck(feats)
        loss = sum(F.relu(o).mean() for o in outs)
        loss.backward()
        opt.step()
        print(it, [tuple(o.shape) for o in outs], loss.item())


if __name__ == "__main__":
    main()
