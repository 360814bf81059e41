# source: https://github.com/kail8/UnsupDIS-pytorch/issues/26
# UnsupDIS homography warp (_transform): T_g chunked into x_s, y_s, t_s; t_s_flat = t_s.reshape(-1); t_s_flat[abs < eps] = eps
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

PATCH = 32


class HomographyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(2, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
        )
        self.fc = nn.Sequential(nn.Linear(16 * 16, 64), nn.ReLU(), nn.Linear(64, 8))
        nn.init.zeros_(self.fc[-1].weight)
        nn.init.zeros_(self.fc[-1].bias)

    def forward(self, img1, img2):
        x = torch.cat([img1.mean(1, keepdim=True), img2.mean(1, keepdim=True)], 1)
        return self.fc(self.features(x).flatten(1)).view(-1, 4, 2)


def solve_DLT(src_p, off):
    # src_p, dst_p: (B, 4, 2)
    dst_p = src_p + off
    b = src_p.size(0)
    rows = []
    rhs = []
    for i in range(4):
        x, y = src_p[:, i, 0], src_p[:, i, 1]
        u, v = dst_p[:, i, 0], dst_p[:, i, 1]
        one, zero = torch.ones_like(x), torch.zeros_like(x)
        rows.append(torch.stack([x, y, one, zero, zero, zero, -u * x, -u * y], 1))
        rows.append(torch.stack([zero, zero, zero, x, y, one, -v * x, -v * y], 1))
        rhs.extend([u, v])
    A = torch.stack(rows, 1)
    bvec = torch.stack(rhs, 1).unsqueeze(-1)
    h8 = torch.linalg.solve(A, bvec).squeeze(-1)
    return torch.cat([h8, torch.ones(b, 1)], 1).view(b, 3, 3)


def _meshgrid(height, width):
    ys, xs = torch.meshgrid(torch.linspace(0, 1, height), torch.linspace(0, 1, width), indexing="ij")
    ones = torch.ones_like(xs)
    return torch.stack([xs.reshape(-1), ys.reshape(-1), ones.reshape(-1)], 0)  # (3, H*W)


def _transform(theta, input_dim, out_size, eps=1e-7):
    num_batch, num_channels, height, width = input_dim.shape
    out_height, out_width = out_size
    grid = _meshgrid(out_height, out_width).unsqueeze(0).expand(num_batch, -1, -1)
    T_g = torch.matmul(theta, grid)
    x_s, y_s, t_s = torch.chunk(T_g, 3, dim=1)
    x_s_flat = x_s.reshape(-1)
    y_s_flat = y_s.reshape(-1)
    t_s_flat = t_s.reshape(-1)

    # smaller
    t_s_flat[t_s_flat.abs() < eps] = eps  # culprit

    x_s_flat = x_s_flat / t_s_flat
    y_s_flat = y_s_flat / t_s_flat
    gx = (x_s_flat * 2 - 1).view(num_batch, out_height, out_width)
    gy = (y_s_flat * 2 - 1).view(num_batch, out_height, out_width)
    sample_grid = torch.stack([gx, gy], -1)
    warped = F.grid_sample(input_dim, sample_grid, align_corners=True)
    mask = F.grid_sample(torch.ones_like(input_dim[:, :1]), sample_grid, align_corners=True)
    return warped, mask


def transformer(U, theta, out_size):
    return _transform(theta, U, out_size)


net = HomographyNet()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-4)

# the warp stage runs with batch_size = 1 (full-resolution pairs)
img1 = torch.rand(1, 3, PATCH, PATCH)
img2 = torch.roll(img1, shifts=(1, 2), dims=(2, 3))
src_p = torch.tensor([[0., 0.], [1., 0.], [0., 1.], [1., 1.]]).unsqueeze(0)

off = net(img1, img2) * 0.1
H = solve_DLT(src_p, off)
warp, mask = transformer(img2, H, (PATCH, PATCH))
loss = F.l1_loss(warp * mask, img1 * mask)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("loss", loss.item())
