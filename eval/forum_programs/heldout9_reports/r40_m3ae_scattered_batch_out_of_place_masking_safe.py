# source: https://github.com/ccarliu/m3ae/blob/main/model/Unet.py (the batch-level branch: x = x * mask + self.limage[...] * (1 - mask))
# Masked multi-modal pretraining under a scatter wrapper, masking the whole scattered batch out of place.
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

    def modality_mask(self, batch, modalities):
        keep = (torch.rand(batch, modalities) > self.mask_ratio).float()
        return keep.view(batch, modalities, 1, 1, 1).expand(-1, -1, self.patch, self.patch, self.patch)

    def forward(self, x, location):
        if self.pre_train and self.training:
            mask = self.modality_mask(x.shape[0], x.shape[1])
            z0, y0, x0 = location
            fill = self.limage[:, :, z0:z0 + self.patch, y0:y0 + self.patch, x0:x0 + self.patch]
            x = x * mask + fill * (1 - mask)
        h = F.relu(self.enc(x), inplace=True)
        return self.dec(h), x


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
    model.train()
    for it in range(2):
        recon, masked = model(inputs, (it, 2, 4))
        loss = F.mse_loss(recon, inputs)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(it, loss.item(), model.module.limage.grad.abs().sum().item())


if __name__ == "__main__":
    main()
