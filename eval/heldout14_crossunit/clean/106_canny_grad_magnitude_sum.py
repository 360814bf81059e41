# Source: https://github.com/DCurro/CannyEdgePytorch/issues/5 (DCurro/CannyEdgePytorch#5: "I just fixed the inplace operations")
# Unit kind: cross-function
# Look-alike of hazard/007: the accumulation helper returns a new sum.
import torch
import torch.nn as nn

torch.manual_seed(0)


def sobel_filters():
    kx = torch.tensor([[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [1.0, 0.0, -1.0]])
    fx = nn.Conv2d(1, 1, 3, padding=1, bias=False)
    fy = nn.Conv2d(1, 1, 3, padding=1, bias=False)
    with torch.no_grad():
        fx.weight.copy_(kx.view(1, 1, 3, 3))
        fy.weight.copy_(kx.t().contiguous().view(1, 1, 3, 3))
    fx.weight.requires_grad_(False)
    fy.weight.requires_grad_(False)
    return fx, fy


def magnitude(gx, gy):
    return torch.sqrt(gx ** 2 + gy ** 2 + 1e-6)


def accumulate(total, extra):
    total = total + extra
    return total


def edge_strength(img, fx, fy):
    grad_mag = None
    for c in range(img.size(1)):
        channel = img[:, c:c + 1]
        m = magnitude(fx(channel), fy(channel))
        grad_mag = m if grad_mag is None else accumulate(grad_mag, m)
    return grad_mag


enhancer = nn.Conv2d(3, 3, 1)
fx, fy = sobel_filters()
img = enhancer(torch.rand(1, 3, 6, 6))
edge_strength(img, fx, fy).mean().backward()
print("done")
