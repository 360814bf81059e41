# Source: https://github.com/open-mmlab/mmocr/pull/884 (open-mmlab/mmocr PR #884 "Fix a bug that may cause inplace operation error": fpem_ffm.py accumulates `c2_ffm += c2` ... across FPEM stages while the first stage's outputs are still saved)
# Unit kind: cross-class
# Each FPEM stage convolves its inputs (the convolution saves them); the FPEM_FFM
# neck keeps the first stage's outputs as accumulators and adds later stages into them.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FPEM(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.up = nn.Conv2d(ch, ch, 3, padding=1)
        self.down = nn.Conv2d(ch, ch, 3, padding=1, stride=2)

    def forward(self, c2, c3):
        c2 = self.up(c2 + F.interpolate(c3, size=c2.shape[-2:]))
        c3 = self.down(c2) + c3
        return [c2, c3]


class FPEM_FFM(nn.Module):
    def __init__(self, ch, num_stages=2):
        super().__init__()
        self.fpems = nn.ModuleList(FPEM(ch) for _ in range(num_stages))

    def forward(self, c2, c3):
        feats = self.fpems[0](c2, c3)
        ffm = list(feats)
        for fpem in self.fpems[1:]:
            feats = fpem(*feats)
            for i in range(len(ffm)):
                ffm[i] += feats[i]  # culprit
        return torch.cat([ffm[0], F.interpolate(ffm[1], size=ffm[0].shape[-2:])], dim=1)


neck = FPEM_FFM(4)
out = neck(torch.randn(1, 4, 8, 8), torch.randn(1, 4, 4, 4))
out.mean().backward()
print("done")
