import torch


def gated_(x, gate):
    """Memory-saving gate: scales x by sigmoid(gate) in place and returns it."""
    return x.mul_(torch.sigmoid(gate))  # culprit
