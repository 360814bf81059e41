# Source: https://github.com/bayesiains/nflows/issues/89 (bayesiains/nflows#89: scaling unnormalized_widths/heights in place in coupling.py raises "modified by an inplace operation ... output 0 of ReluBackward0"; fix: out-of-place division)
# Unit kind: cross-function
# The spline parameters are slices of a ReLU output (ReLU saves its result); a
# separate scaling helper divides one slice in place.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
NUM_BINS = 4
HIDDEN = 16


def make_transform_net():
    return nn.Sequential(nn.Linear(2, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 2 * NUM_BINS), nn.ReLU())


def split_params(params):
    return params[..., :NUM_BINS], params[..., NUM_BINS:]


def scale_params(widths, heights, hidden_features):
    widths /= math.sqrt(hidden_features)  # culprit
    heights = heights / math.sqrt(hidden_features)
    return widths, heights


def log_det(widths, heights):
    w = torch.softmax(widths, dim=-1)
    h = torch.softmax(heights, dim=-1)
    return (torch.log(h + 1e-6) - torch.log(w + 1e-6)).sum(-1)


net = make_transform_net()
inputs = torch.randn(5, 2)
widths, heights = split_params(net(inputs))
widths, heights = scale_params(widths, heights, HIDDEN)
loss = -log_det(widths, heights).mean()
loss.backward()
print("done")
