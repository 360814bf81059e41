# Source: https://github.com/alibaba/TinyNeuralNetwork/issues/238 (alibaba/TinyNeuralNetwork#238: gru.py's `hx = [(hx[idx].squeeze_(0)) for idx in range(self.num_layers)]`)
# Unit kind: cross-function
# Look-alike of hazard/010: the per-layer states are unbind views of a zero initial
# state that never requires grad, so squeezing them in place is allowed; the list
# itself is a plain Python list rebuilt by the second helper.
import torch
import torch.nn as nn

torch.manual_seed(0)
LAYERS, BATCH, HIDDEN = 2, 3, 4


def initial_state():
    return torch.zeros(LAYERS, 1, BATCH, HIDDEN)


def per_layer(hx):
    return list(hx.unbind(0))


def squeeze_states(states):
    return [h.squeeze_(0) for h in states]


cells = nn.ModuleList([nn.GRUCell(HIDDEN, HIDDEN) for _ in range(LAYERS)])
hx = squeeze_states(per_layer(initial_state()))
x = torch.randn(BATCH, HIDDEN)
for layer, cell in enumerate(cells):
    x = cell(x, hx[layer])
    hx[layer] = x
x.sum().backward()
print("done")
