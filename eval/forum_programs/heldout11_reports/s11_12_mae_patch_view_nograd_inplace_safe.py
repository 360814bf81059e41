# source: https://github.com/ccarliu/m3ae/issues/15
# Fixed: only the random mask is built under no_grad; the patch is blended out of place and written back.
import torch
import torch.nn as nn

torch.manual_seed(0)


class MaskedUnet(nn.Module):
    def __init__(self, channels=2, size=8):
        super().__init__()
        self.limage = nn.Parameter(torch.zeros(1, channels, size, size, size))
        self.enc = nn.Conv3d(channels, 4, 3, padding=1)
        self.head = nn.Conv3d(4, channels, 1)

    def forward(self, x, location):
        (z0, z1), (y0, y1), (x0, x1) = location
        with torch.no_grad():
            mask = (torch.rand(x.size(0), 1, 1, 1, 1) > 0.5).float()
        x = x.clone()
        patch = x[:, :, z0:z1, y0:y1, x0:x1] * mask \
            + self.limage[:, :, z0:z1, y0:y1, x0:x1] * (1 - mask)
        x[:, :, z0:z1, y0:y1, x0:x1] = patch
        return self.head(torch.relu(self.enc(x)))


model = MaskedUnet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
inputs = torch.randn(2, 2, 8, 8, 8)
location = ((0, 4), (2, 6), (4, 8))
recon = model(inputs.clone(), location)
loss = ((recon - inputs) ** 2).mean()
opt.zero_grad()
loss.backward()
opt.step()
print("done")
