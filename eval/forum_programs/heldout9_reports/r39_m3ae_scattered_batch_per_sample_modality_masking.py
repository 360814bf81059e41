# source: https://github.com/ccarliu/m3ae/issues/15 (model/Unet.py line 830, under DataParallel scatter)
# Masked multi-modal pretraining: each scattered sample gets masked modalities filled from a learnable image, in place.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Scatter(torch.autograd.Function):
    """CPU stand-in for nn.DataParallel's scatter: returns per-replica chunks of the batch."""
    @staticmethod
    def forward(ctx, chunk_sizes, dim, input):
        ctx.dim = dim
        return input.split(chunk_sizes, dim)

    @staticmethod
    def backward(ctx, *grads):
        return None, None, torch.cat(grads, ctx.dim)


class MaskedUnet(nn.Module):
    def __init__(self, modalities=4, limage_size=12, patch=8, mask_ratio=0.5):
        super().__init__()
        self.limage = nn.Parameter(torch.randn(1, modalities, limage_size, limage_size, limage_size) * 0.1)
        self.enc = nn.Conv3d(modalities, 8, 3, padding=1)
        self.dec = nn.Conv3d(8, modalities, 3, padding=1)
        self.patch, self.mask_ratio = patch, mask_ratio
        self.pre_train = True

    def modality_mask(self, modalities):
        keep = (torch.rand(modalities) > self.mask_ratio).float()
        return keep.view(modalities, 1, 1, 1).expand(modalities, self.patch, self.patch, self.patch)

    def forward(self, x, location):
        if self.pre_train and self.training:
            for l in range(x.shape[0]):
                mask = self.modality_mask(x.shape[1])
                z0, y0, x0 = location[l]
                x[l] = x[l] * mask + self.limage[0, :, z0:z0 + self.patch, y0:y0 + self.patch, x0:x0 + self.patch] * (1 - mask)  # culprit
        return self.dec(F.relu(self.enc(x)))


class SingleDeviceDataParallel(nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, inputs, location):
        chunks = Scatter.apply([inputs.size(0)], 0, inputs)
        return self.module(chunks[0], location)


def main():
    torch.manual_seed(0)
    model = SingleDeviceDataParallel(MaskedUnet())
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    inputs = torch.randn(2, 4, 8, 8, 8)
    target = inputs.clone()
    patch_locations = [(0, 2, 4), (3, 1, 0)]
    model.train()
    recon = model(inputs, patch_locations)
    loss = F.mse_loss(recon, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
