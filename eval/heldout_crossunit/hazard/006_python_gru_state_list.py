# Source: pytorch/rl#1742 ("Python-based RNNs in place operations cause RuntimeError") and
# Rose-STL-Lab/torchTS#50 (in-place update inside a recurrent cell).
# Unit kind: function -- the state is returned as a list by one call and updated with +=
# by the next call.
import torch
import torch.nn as nn

torch.manual_seed(0)
inp = nn.Linear(3, 5)
rec = nn.Linear(5, 5)


def cell(x, state):
    if state is None:
        return [torch.tanh(inp(x))]
    h = state[0]
    h += inp(x)  # culprit
    return [torch.tanh(rec(h))]


xs = torch.randn(4, 2, 3)
state, outs = None, []
for t in range(xs.shape[0]):
    state = cell(xs[t], state)
    outs.append(state[0])
torch.stack(outs).sum().backward()
print("done")
