import torch


def gated_(x, gate):
    """Memory-saving gate: in place when nothing needs x's history, out of place otherwise."""
    if x.requires_grad:
        return x * torch.sigmoid(gate)
    return x.mul_(torch.sigmoid(gate))
