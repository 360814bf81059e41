# Source: https://github.com/bayesiains/nflows/issues/89 (bayesiains/nflows#89: the reporter's fix, `unnormalized_widths = unnormalized_widths / np.sqrt(...)`)
# Unit kind: cross-function
# Look-alike of hazard/002: the scaling helper divides both slices out of place.
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
    widths = widths / math.sqrt(hidden_features)
    heights = heights / math.sqrt(hidden_features)
    return widths, heights


def log_det(widths, heights):
    w = torch.softmax(widths, dim=-1)
    h = torch.softmax(heights, dim=-1)
    return (torch.log(h + 1e-6) - torch.log(w + 1e-6)).sum(-1)


net = make_transform_net()
widths, heights = split_params(net(torch.randn(5, 2)))
widths, heights = scale_params(widths, heights, HIDDEN)
(-log_det(widths, heights).mean()).backward()
print("done")
