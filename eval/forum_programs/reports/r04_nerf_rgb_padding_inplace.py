# intended: AGI001
# like: issue on a NeRF reimplementation, mip-NeRF style rgb padding applied in place to the sigmoid output
import torch
import torch.nn as nn
import torch.nn.functional as F


def positional_encoding(x, n_freqs=4):
    out = [x]
    for i in range(n_freqs):
        out += [torch.sin((2.0 ** i) * x), torch.cos((2.0 ** i) * x)]
    return torch.cat(out, -1)


class TinyNeRF(nn.Module):
    def __init__(self, n_freqs=4, width=32):
        super().__init__()
        in_dim = 3 + 3 * 2 * n_freqs
        self.n_freqs = n_freqs
        self.layers = nn.Sequential(nn.Linear(in_dim, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())
        self.sigma_head = nn.Linear(width, 1)
        self.rgb_head = nn.Linear(width, 3)

    def forward(self, pts):
        h = self.layers(positional_encoding(pts, self.n_freqs))
        return torch.cat([self.rgb_head(h), self.sigma_head(h)], -1)


def raw2outputs(raw, z_vals, rays_d, rgb_padding=0.001, white_bkgd=True):
    rgb = torch.sigmoid(raw[..., :3])
    rgb.mul_(1 + 2 * rgb_padding).sub_(rgb_padding)  # culprit
    dists = z_vals[..., 1:] - z_vals[..., :-1]
    dists = torch.cat([dists, torch.full_like(dists[..., :1], 1e10)], -1)
    dists = dists * torch.norm(rays_d[..., None, :], dim=-1)
    alpha = 1.0 - torch.exp(-F.softplus(raw[..., 3] - 1.0) * dists)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[..., :1]), 1.0 - alpha + 1e-10], -1), -1)[..., :-1]
    weights = alpha * trans
    rgb_map = torch.sum(weights[..., None] * rgb, -2)
    acc_map = torch.sum(weights, -1)
    if white_bkgd:
        rgb_map = rgb_map + (1.0 - acc_map[..., None])
    return rgb_map, weights


def render_rays(model, rays_o, rays_d, near=2.0, far=6.0, n_samples=8):
    t_vals = torch.linspace(0.0, 1.0, n_samples)
    z_vals = (near * (1.0 - t_vals) + far * t_vals).expand(rays_o.shape[0], n_samples)
    pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
    raw = model(pts)
    return raw2outputs(raw, z_vals, rays_d)


def main():
    torch.manual_seed(0)
    model = TinyNeRF()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
    rays_o = torch.zeros(16, 3)
    rays_d = F.normalize(torch.randn(16, 3), dim=-1)
    target = torch.rand(16, 3)
    for it in range(2):
        rgb, _ = render_rays(model, rays_o, rays_d)
        loss = F.mse_loss(rgb, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(it, loss.item())


if __name__ == "__main__":
    main()
