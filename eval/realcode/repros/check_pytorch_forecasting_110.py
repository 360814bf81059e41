# pytorch_forecasting.layers.sLSTMLayer.forward (layers/_recurrent/_slstm/layer.py:110 and 121):
# `h[layer], c[layer] = self.cells[layer](...)` and `h[layer] = h[layer] + residual` store into `h`,
# a Python list of per-layer states (init_hidden, layer.py:137-150; the docstring says "list of
# torch.Tensor"; xLSTMTime passes init_hidden's lists), so nothing in place happens to a tensor.
# (Also, input_projection at line 114 only ever sees layer_input = x[t], at layer 0.)
# Runs the class verbatim (pytorch_forecasting imports pandas etc., not installed here) with the
# residual projection active, two layers, inputs and initial states that require grad, grad on,
# then a backward. Exits 0 when backward is clean.
import math
import sys

import torch
import torch.nn as nn
from extract import load

ns = dict(torch=torch, nn=nn, math=math)
load("pytorch-forecasting-1.8.0/pytorch_forecasting/layers/_recurrent/_slstm/cell.py", {"sLSTMCell"}, ns)
load("pytorch-forecasting-1.8.0/pytorch_forecasting/layers/_recurrent/_slstm/layer.py", {"sLSTMLayer"}, ns)
torch.manual_seed(0)
layer = ns["sLSTMLayer"](input_size=3, hidden_size=5, num_layers=2, dropout=0.1,
                         use_layer_norm=True, use_residual=True).train()
assert layer.input_projection is not None
x = torch.randn(4, 2, 3, requires_grad=True)  # (seq_len, batch, features)
for h0, c0 in [(None, None),
               ([torch.randn(2, 5, requires_grad=True) for _ in range(2)],
                [torch.randn(2, 5, requires_grad=True) for _ in range(2)])]:
    out, (h, c) = layer(x, h0, c0)
    out.pow(2).sum().backward()  # raises if any saved tensor was modified in place
    assert x.grad is not None and layer.input_projection.weight.grad is not None
    x.grad = None
print("backward clean: h/c are lists, the [...]= writes are list stores")
sys.exit(0)
