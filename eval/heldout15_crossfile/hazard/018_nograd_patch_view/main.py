# Source: https://github.com/ccarliu/m3ae/issues/15 (RuntimeError: A view was created in no_grad mode and is being modified inplace with grad mode enabled, on x[l] = x[l] * mask + ...)
# Unit kind: cross-file
import torch

from encoder import Encoder
from patching import as_patches

torch.manual_seed(0)
enc = Encoder()
feat = enc(torch.randn(2, 4, 8))
patches = as_patches(feat, 4)
mask = (torch.rand(patches.shape[:-1]) > 0.5).float().unsqueeze(-1)
patches.mul_(mask)  # culprit
kept = float(patches.abs().sum())
loss = feat.pow(2).mean()
loss.backward()
print("kept", kept, "loss", float(loss))
