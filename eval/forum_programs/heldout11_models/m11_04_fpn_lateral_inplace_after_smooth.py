# source: torchvision FeaturePyramidNetwork top-down pathway
# description: lateral map is fed to the smoothing conv (which saves its input) and then top-down features are added into it in-place
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyFPN(nn.Module):
    def __init__(self, in_channels_list, out_channels):
        super().__init__()
        self.inner_blocks = nn.ModuleList([nn.Conv2d(c, out_channels, 1) for c in in_channels_list])
        self.layer_blocks = nn.ModuleList([nn.Conv2d(out_channels, out_channels, 3, padding=1) for _ in in_channels_list])

    def forward(self, feats):
        names = list(feats.keys())
        laterals = {n: blk(feats[n]) for n, blk in zip(names, self.inner_blocks)}
        results = {}
        last_inner = laterals[names[-1]]
        results[names[-1]] = self.layer_blocks[-1](last_inner)
        for idx in range(len(names) - 2, -1, -1):
            name = names[idx]
            inner_lateral = laterals[name]
            results[name] = self.layer_blocks[idx](inner_lateral)
            top_down = F.interpolate(last_inner, size=inner_lateral.shape[-2:], mode="nearest")
            inner_lateral += top_down  # culprit
            last_inner = inner_lateral
        return results


if __name__ == "__main__":
    torch.manual_seed(0)
    fpn = TinyFPN([4, 8], 6)
    feats = {"c3": torch.randn(1, 4, 8, 8), "c4": torch.randn(1, 8, 4, 4)}
    out = fpn(feats)
    loss = sum(o.mean() for o in out.values())
    loss.backward()
