import torch


def update_conv_state(conv_state, x):
    """Shift the causal-conv state window by one step and append x (a new tensor)."""
    return torch.cat([conv_state[:, 1:, :], x], dim=1)
