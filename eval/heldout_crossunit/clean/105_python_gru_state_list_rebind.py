# Source: pytorch/rl#1742 (Python-based RNN cells; the fix replaces in-place state updates).
# Clean look-alike of hazard/006: the state from the list is updated out of place.
# Unit kind: function.
import torch
import torch.nn as nn

torch.manual_seed(0)
inp = nn.Linear(3, 5)
rec = nn.Linear(5, 5)


def cell(x, state):
    if state is None:
        return [torch.tanh(inp(x))]
    h = state[0]
    h = h + inp(x)
    return [torch.tanh(rec(h))]


xs = torch.randn(4, 2, 3)
state, outs = None, []
for t in range(xs.shape[0]):
    state = cell(xs[t], state)
    outs.append(state[0])
torch.stack(outs).sum().backward()
print("done")
