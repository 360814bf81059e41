# Source: ccarliu/m3ae#15 ("A view was created in no_grad mode and is being modified inplace
# with grad mode enabled", raised at x[l] = x[l] * mask + ... in Unet.forward).
# Unit kind: function -- the patch view is cut under no_grad by one helper and written by another.
import torch
import torch.nn as nn

torch.manual_seed(0)
enc = nn.Conv3d(1, 2, 3, padding=1)


def crop_patch(feat, loc):
    with torch.no_grad():
        return feat[:, :, loc[0]:loc[1], loc[0]:loc[1], loc[0]:loc[1]]


def blend_patch(patch, mask, fill):
    patch.mul_(mask).add_(fill * (1 - mask))  # culprit
    return patch


feat = enc(torch.randn(1, 1, 6, 6, 6))
patch = crop_patch(feat, (1, 4))
mask = (torch.rand_like(patch) > 0.5).float()
blend_patch(patch, mask, torch.zeros_like(patch))
feat.sum().backward()
print("done")
