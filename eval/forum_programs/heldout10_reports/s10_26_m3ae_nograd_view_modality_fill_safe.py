# source: https://github.com/ccarliu/m3ae/issues/15
# M3AE pretraining: @torch.no_grad() patch/modality-mask helper returns a reshaped view; forward clones it before filling x[l] with the learnable limage
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_MOD = 4
VOL = 16
PATCH = 8


@torch.no_grad()
def random_modality_drop(inputs, patch_locations, mask_ratio=0.5):
    b, c = inputs.shape[:2]
    x = inputs.reshape(b, c, VOL, VOL, VOL)  # flat volumes -> 3D (a view)
    keep = (torch.rand(b, c, 1, 1, 1) > mask_ratio).float()
    keep[:, 0] = 1.0  # always keep one modality
    return x, keep, mask_ratio


class ConvBlock3d(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv3d(cin, cout, 3, padding=1)
        self.norm = nn.InstanceNorm3d(cout, affine=True)

    def forward(self, x):
        return F.leaky_relu(self.norm(self.conv(x)), 0.01)


class Unet(nn.Module):
    def __init__(self, num_cls=3):
        super().__init__()
        self.limage = nn.Parameter(torch.zeros(1, N_MOD, VOL, VOL, VOL))  # learnable fill for dropped modalities
        self.enc1 = ConvBlock3d(N_MOD, 8)
        self.enc2 = ConvBlock3d(8, 16)
        self.dec1 = ConvBlock3d(16 + 8, 8)
        self.seg = nn.Conv3d(8, num_cls, 1)
        self.rec = nn.Conv3d(8, N_MOD, 1)

    def forward(self, inputs, location):
        x, mask, mask_ratio = random_modality_drop(inputs, location)
        x = x.clone()  # own the buffer before filling it with grad-tracked values
        for l in range(x.shape[0]):
            d0, d1 = location[0][0][l], location[0][1][l]
            h0, h1 = location[1][0][l], location[1][1][l]
            w0, w1 = location[2][0][l], location[2][1][l]
            x[l] = x[l] * mask[l] + self.limage[0, :, d0:d1, h0:h1, w0:w1] * (1 - mask[l])
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool3d(e1, 2))
        d1 = self.dec1(torch.cat([F.interpolate(e2, scale_factor=2, mode="trilinear"), e1], 1))
        return self.seg(d1), mask_ratio, self.rec(d1), mask


model_1 = Unet()
optimizer = torch.optim.Adam(model_1.parameters(), lr=3e-4)

inputs_S1 = torch.randn(2, N_MOD, VOL * VOL * VOL)
# patch locations: (start, end) per axis per sample; here the whole 16^3 crop
patch_locations = [[torch.zeros(2, dtype=torch.long), torch.full((2,), VOL)] for _ in range(3)]
target = torch.randint(0, 3, (2, VOL, VOL, VOL))

segs_S1, mask_ratio, rec, _ = model_1(inputs_S1, patch_locations)
loss = F.cross_entropy(segs_S1, target) + F.mse_loss(rec, inputs_S1.reshape(2, N_MOD, VOL, VOL, VOL))
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("loss", loss.item())
