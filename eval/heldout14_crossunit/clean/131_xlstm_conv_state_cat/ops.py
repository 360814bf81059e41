import torch


def conv1d_step(x, conv_state, weight):
    """One causal-conv step on a new state window (no in-place update)."""
    conv_state = torch.cat([conv_state[:, 1:, :], x], dim=1)
    y = (conv_state * weight).sum(dim=1)
    return y, conv_state
