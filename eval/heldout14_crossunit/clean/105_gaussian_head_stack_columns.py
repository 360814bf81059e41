# Source: https://github.com/pytorch/pytorch/issues/114505 (pytorch/pytorch#114505: the in-place assignment into b[:, 1] is the problem; build a new tensor instead)
# Unit kind: cross-function
# Look-alike of hazard/006: the post-processing helper stacks the mean column and the
# positivity helper's softplus'd scale column into a new tensor.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def gaussian_head(layer, x):
    return layer(x)


def positive(raw, eps=1e-3):
    return F.softplus(raw) + eps


def constrain_scale(params, transform=positive):
    return torch.stack([params[:, 0], transform(params[:, 1])], dim=1)


def gaussian_nll(params, y):
    mu, sigma = params[:, 0], params[:, 1]
    return (torch.log(sigma) + 0.5 * ((y - mu) / sigma) ** 2).mean()


layer = nn.Linear(3, 2)
x, y = torch.randn(6, 3), torch.randn(6)
params = constrain_scale(gaussian_head(layer, x))
gaussian_nll(params, y).backward()
print("done")
