# intended: AGI001
# like: forum thread, exclusive cumprod for NeRF transmittance written by shifting the cumprod result in place
import torch
import torch.nn as nn
import torch.nn.functional as F


class RadianceField(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(3, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())
        self.density = nn.Linear(width, 1)
        self.color = nn.Sequential(nn.Linear(width + 3, width // 2), nn.ReLU(), nn.Linear(width // 2, 3))

    def forward(self, pts, dirs):
        h = self.trunk(pts)
        sigma = F.relu(self.density(h)).squeeze(-1)
        rgb = torch.sigmoid(self.color(torch.cat([h, dirs], -1)))
        return rgb, sigma


def compute_weights(sigma, z_vals):
    delta = z_vals[..., 1:] - z_vals[..., :-1]
    delta = torch.cat([delta, 1e10 * torch.ones_like(delta[..., :1])], -1)
    alpha = 1.0 - torch.exp(-sigma * delta)
    T = torch.cumprod(1.0 - alpha + 1e-10, dim=-1)
    T[..., 1:] = T[..., :-1].clone()  # culprit
    T[..., 0] = 1.0
    return alpha * T


def volume_render(field, rays_o, rays_d, z_vals):
    pts = rays_o[:, None, :] + rays_d[:, None, :] * z_vals[..., None]
    dirs = rays_d[:, None, :].expand_as(pts)
    rgb, sigma = field(pts, dirs)
    weights = compute_weights(sigma, z_vals)
    color = (weights[..., None] * rgb).sum(-2)
    depth = (weights * z_vals).sum(-1)
    return color, depth


def main():
    torch.manual_seed(0)
    field = RadianceField()
    opt = torch.optim.Adam(field.parameters(), lr=1e-3)
    rays_o = torch.randn(8, 3) * 0.1
    rays_d = F.normalize(torch.randn(8, 3), dim=-1)
    z_vals = torch.linspace(1.0, 4.0, 12).expand(8, 12)
    target = torch.rand(8, 3)
    for step in range(2):
        color, depth = volume_render(field, rays_o, rays_d, z_vals)
        loss = F.mse_loss(color, target) + 1e-3 * depth.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
