# Source: https://github.com/alibaba/TinyNeuralNetwork/issues/238 (alibaba/TinyNeuralNetwork#238: quantizable gru.py does `hx = [(hx[idx].squeeze_(0)) for idx in range(self.num_layers)]` -> "Output 0 of UnbindBackward0 is a view and is being modified inplace")
# Unit kind: cross-function
# The initial hidden state is a learned projection (requires grad); one helper splits it
# per layer with unbind, another squeezes each layer's state in place.
import torch
import torch.nn as nn

torch.manual_seed(0)
LAYERS, BATCH, HIDDEN = 2, 3, 4


def initial_state(proj, z):
    return proj(z).view(LAYERS, 1, BATCH, HIDDEN)


def per_layer(hx):
    return list(hx.unbind(0))


def squeeze_states(states):
    return [h.squeeze_(0) for h in states]  # culprit


cells = nn.ModuleList([nn.GRUCell(HIDDEN, HIDDEN) for _ in range(LAYERS)])
proj = nn.Linear(5, LAYERS * BATCH * HIDDEN)
hx = squeeze_states(per_layer(initial_state(proj, torch.randn(5))))
x = torch.randn(BATCH, HIDDEN)
for layer, cell in enumerate(cells):
    x = cell(x, hx[layer])
x.sum().backward()
print("done")
