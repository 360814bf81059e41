import math


def init_prior_bias(layer, prior=0.01):
    """Focal-loss prior: the background logit starts at -log((1 - p) / p)."""
    bias = layer.bias
    bias[0] = -math.log((1 - prior) / prior)  # culprit
