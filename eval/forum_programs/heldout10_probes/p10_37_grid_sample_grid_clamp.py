# probe: grid_sample saves its sampling grid even when the grid needs no grad; clamping the grid in place afterwards makes it stale
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def warp(img, grid):
    return F.grid_sample(img, grid, mode="bilinear", align_corners=False)


def main():
    conv = nn.Conv2d(1, 2, 3, padding=1)
    x = torch.randn(1, 1, 6, 6)
    img = conv(x)
    ys, xs = torch.meshgrid(torch.linspace(-1, 1, 6), torch.linspace(-1, 1, 6), indexing="ij")
    grid = torch.stack([xs, ys], dim=-1)[None] + 0.2 * torch.randn(1, 6, 6, 2)
    warped = warp(img, grid)
    grid.clamp_(-1.0, 1.0)  # culprit
    loss = warped.pow(2).mean()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
