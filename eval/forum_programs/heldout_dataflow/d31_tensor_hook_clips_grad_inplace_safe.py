# Gradient clipping on an intermediate with a tensor hook that clamps the incoming gradient in place.
# The gradient is not a saved tensor, so the in-place write raises nothing.
import torch
import torch.nn as nn

torch.manual_seed(0)
enc = nn.Linear(5, 8)
head = nn.Linear(8, 1)
x = torch.randn(6, 5)
h = torch.sigmoid(enc(x))
h.register_hook(lambda g: g.clamp_(-0.01, 0.01))
y = head(h * h)
y.pow(2).mean().backward()
print(enc.weight.grad.norm().item())
