# Source: ccarliu/m3ae#15 (view cut under no_grad, then modified with grad on); here the blend
# builds a new tensor instead.
# Clean look-alike of hazard/018.
# Unit kind: function.
import torch
import torch.nn as nn

torch.manual_seed(0)
enc = nn.Conv3d(1, 2, 3, padding=1)


def crop_patch(feat, loc):
    with torch.no_grad():
        return feat[:, :, loc[0]:loc[1], loc[0]:loc[1], loc[0]:loc[1]]


def blend_patch(patch, mask, fill):
    patch = patch * mask + fill * (1 - mask)
    return patch


feat = enc(torch.randn(1, 1, 6, 6, 6))
patch = crop_patch(feat, (1, 4))
mask = (torch.rand_like(patch) > 0.5).float()
out = blend_patch(patch, mask, torch.zeros_like(patch))
(feat.sum() + out.sum()).backward()
print("done")
