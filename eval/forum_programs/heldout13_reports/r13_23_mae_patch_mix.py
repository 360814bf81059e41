# source: https://github.com/ccarliu/m3ae/issues/15 ("A view was created in no_grad mode and is being modified inplace with grad mode enabled. ...")
# Masked-modality pre-training of a tiny 3D U-Net: random modalities/patches are replaced by a learnable image.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

MODALITIES, VOL, CROP, PATCH = 4, 12, 8, 4


class Unet3D(nn.Module):
    def __init__(self, c=MODALITIES, f=8):
        super().__init__()
        self.limage = nn.Parameter(torch.zeros(1, c, VOL, VOL, VOL))   # learnable fill-in image
        self.enc = nn.Sequential(nn.Conv3d(c, f, 3, 1, 1), nn.InstanceNorm3d(f), nn.LeakyReLU(0.2))
        self.down = nn.Conv3d(f, 2 * f, 3, 2, 1)
        self.up = nn.ConvTranspose3d(2 * f, f, 2, 2)
        self.dec = nn.Conv3d(2 * f, c, 3, 1, 1)

    def masked_mixing(self, x, location, mask_ratio=0.5):
        (z0, y0, x0) = location
        for l in range(x.shape[0]):
            keep = (torch.rand(1, MODALITIES, 1, 1, 1) > mask_ratio).float()
            mask = F.interpolate((torch.rand(1, 1, CROP // PATCH, CROP // PATCH, CROP // PATCH) > mask_ratio).float(),
                                 scale_factor=PATCH) * keep
            x[l] = x[l] * mask[0] + self.limage[0, :, z0:z0 + CROP, y0:y0 + CROP, x0:x0 + CROP] * (1 - mask[0])  # culprit
        return x

    def forward(self, x, location):
        x = self.masked_mixing(x, location)
        e = self.enc(x)
        d = self.up(F.leaky_relu(self.down(e), 0.2))
        return self.dec(torch.cat([e, d], 1))


def random_crop(volumes):
    z0, y0, x0 = torch.randint(0, VOL - CROP + 1, (3,)).tolist()
    return volumes[:, :, z0:z0 + CROP, y0:y0 + CROP, x0:x0 + CROP], (z0, y0, x0)


model = Unet3D()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(2):
    volumes = torch.randn(2, MODALITIES, VOL, VOL, VOL)
    with torch.no_grad():
        inputs_S1, patch_locations = random_crop(volumes)
        target = inputs_S1.clone()
    recon = model(inputs_S1, patch_locations)
    loss = F.mse_loss(recon, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch}: reconstruction loss {loss.item():.4f}")
