import torch

from cell import PyLSTMCell


def run_sequence(cell, xs, nh, reset_mask):
    state = [torch.zeros(xs.shape[1], nh), torch.zeros(xs.shape[1], nh)]
    outputs = []
    for t in range(xs.shape[0]):
        state = cell(xs[t], state)
        outputs.append(state[0])
        state[1] = state[1] * reset_mask[t]
    return torch.stack(outputs)
