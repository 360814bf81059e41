# Generator that yields each linear layer's output before the next layer uses it; the consumer applies
# relu_ to it in place while the generator is suspended. The linear result was not saved, and the next
# layer saves the already-activated tensor.
import torch
import torch.nn as nn


def run_layers(layers, x):
    for layer in layers:
        x = layer(x)
        yield x


torch.manual_seed(0)
layers = nn.ModuleList(nn.Linear(5, 5) for _ in range(3))
x = torch.randn(4, 5)
last = None
for h in run_layers(layers, x):
    h.relu_()
    last = h
loss = last.pow(2).mean()
loss.backward()
print(layers[0].weight.grad.norm().item())
