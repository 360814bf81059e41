# ACT-style halting loop: the remainder is a fresh tensor each round (1 - cumulative halt), clamped in
# place before it weights the state; the sigmoid outputs are never written
import torch
import torch.nn as nn

torch.manual_seed(0)
cell = nn.Linear(5, 5)
halt_head = nn.Linear(5, 1)
h = torch.randn(4, 5)
halted = torch.zeros(4, 1)
out = torch.zeros(4, 5)
n = 0
while n < 6:
    n += 1
    h = torch.tanh(cell(h))
    p = torch.sigmoid(halt_head(h))
    remainder = 1 - halted
    remainder.clamp_(min=0.0)
    w = torch.minimum(p, remainder)
    out = out + w * h
    halted = halted + w
    if bool((halted > 0.99).all()):
        break
    if n % 2 == 0:
        continue
loss = out.pow(2).mean() + 0.01 * n
loss.backward()
print(n, cell.weight.grad.norm().item())
