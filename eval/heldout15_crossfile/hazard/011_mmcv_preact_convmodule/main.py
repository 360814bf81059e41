# Source: https://github.com/open-mmlab/mmcv/pull/329 (add more act w.o. inplace opt: the mmcv activation registry, whose ConvModule passes inplace=True to the activations that accept it; here a pre-activation order)
# Unit kind: cross-file
import torch
import torch.nn as nn

from cnn import ConvModule

torch.manual_seed(0)


class GatedHead(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.gate = nn.Conv2d(ch, ch, 1)
        self.bottleneck = ConvModule(ch, ch, 3, padding=1, act_cfg=dict(type="ReLU"),
                                     order=("act", "conv", "norm"))

    def forward(self, feats):
        attn = torch.sigmoid(self.gate(feats))
        weighted = feats * attn                  # mul saves feats
        return weighted + self.bottleneck(feats)


head = GatedHead(4)
out = head(torch.randn(2, 4, 6, 6))
out.mean().backward()
print("ok", tuple(out.shape))
