# Source: https://github.com/pytorch/pytorch/issues/114505 (pytorch/pytorch#114505 "An inplace operation involved in torch.nn.functional.softplus": the in-place happens when the softplus output is assigned to b[:, 1]; autograd has one version counter for the whole tensor)
# Unit kind: cross-function
# A Gaussian regression head returns (mean, raw scale) columns; the positivity helper's
# softplus saves the raw-scale column (a view of the head output), and the
# post-processing helper writes the result back into that same tensor.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def gaussian_head(layer, x):
    return layer(x)


def positive(raw, eps=1e-3):
    return F.softplus(raw) + eps


def constrain_scale(params, transform=positive):
    params[:, 1] = transform(params[:, 1])  # culprit
    return params


def gaussian_nll(params, y):
    mu, sigma = params[:, 0], params[:, 1]
    return (torch.log(sigma) + 0.5 * ((y - mu) / sigma) ** 2).mean()


layer = nn.Linear(3, 2)
x, y = torch.randn(6, 3), torch.randn(6)
params = constrain_scale(gaussian_head(layer, x))
gaussian_nll(params, y).backward()
print("done")
