# source: https://github.com/kail8/UnsupDIS-pytorch/issues/26 ("RuntimeError: Output 0 of ViewBackward is a view and is being modified inplace. ...")
# Unsupervised homography estimation for one image pair: 4-point offsets -> DLT -> warp -> photometric loss.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class OffsetNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(2, 8, 3, 2, 1), nn.ReLU(), nn.Conv2d(8, 16, 3, 2, 1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(2))
        self.fc = nn.Linear(64, 8)

    def forward(self, a, b):
        return self.fc(self.features(torch.cat([a, b], 1)).flatten(1)) * 2.0


def dlt(src, dst):
    # src, dst: (B, 4, 2) -> H: (B, 3, 3)
    rows = []
    for i in range(4):
        x, y = src[:, i, 0], src[:, i, 1]
        u, v = dst[:, i, 0], dst[:, i, 1]
        z, o = torch.zeros_like(x), torch.ones_like(x)
        rows.append(torch.stack([x, y, o, z, z, z, -u * x, -u * y], 1))
        rows.append(torch.stack([z, z, z, x, y, o, -v * x, -v * y], 1))
    A = torch.stack(rows, 1)
    b = dst.reshape(-1, 8, 1)
    h = torch.linalg.solve(A, b).squeeze(-1)
    return torch.cat([h, torch.ones_like(h[:, :1])], 1).view(-1, 3, 3)


def transform(img, H, eps=1e-7):
    B, C, Hh, Ww = img.shape
    ys, xs = torch.meshgrid(torch.arange(Hh, dtype=torch.float32), torch.arange(Ww, dtype=torch.float32), indexing="ij")
    grid = torch.stack([xs.reshape(-1), ys.reshape(-1), torch.ones(Hh * Ww)], 0).expand(B, 3, -1)
    T_g = torch.matmul(H, grid)
    x_s, y_s, t_s = torch.chunk(T_g, 3, dim=1)
    t_s_flat = t_s.reshape(-1)
    t_s_flat[t_s_flat.abs() < eps] = eps  # culprit
    x_s_flat = x_s.reshape(-1) / t_s_flat
    y_s_flat = y_s.reshape(-1) / t_s_flat
    gx = x_s_flat.view(B, Hh, Ww) / (Ww - 1) * 2 - 1
    gy = y_s_flat.view(B, Hh, Ww) / (Hh - 1) * 2 - 1
    return F.grid_sample(img, torch.stack([gx, gy], -1), align_corners=True)


size = 16
corners = torch.tensor([[0., 0.], [size - 1, 0.], [0., size - 1], [size - 1, size - 1]]).unsqueeze(0)
net = OffsetNet()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
img1 = torch.rand(1, 1, size, size)
img2 = torch.roll(img1, shifts=1, dims=3) + 0.01 * torch.randn_like(img1)

for it in range(4):
    offsets = net(img1, img2).view(-1, 4, 2)
    H = dlt(corners, corners + offsets)
    warped = transform(img2, H)
    loss = (warped - img1).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"iter {it}: photometric loss {loss.item():.4f}")
