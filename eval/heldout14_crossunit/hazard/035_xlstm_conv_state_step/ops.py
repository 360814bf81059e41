import torch


def conv1d_step(x, conv_state, weight):
    """One causal-conv step: shift the state window, append x, convolve."""
    conv_state.copy_(torch.roll(conv_state, shifts=-1, dims=1))  # culprit
    conv_state[:, -1:, :] = x
    y = (conv_state * weight).sum(dim=1)
    return y, conv_state
