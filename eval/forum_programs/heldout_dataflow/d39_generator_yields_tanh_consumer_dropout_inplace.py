# Layer-by-layer generator that yields each tanh activation; the consumer applies in-place dropout to
# every yielded activation, which tanh saved and the next layer consumes
import torch
import torch.nn as nn
import torch.nn.functional as F


def run_layers(layers, x):
    for layer in layers:
        x = torch.tanh(layer(x))
        yield x


torch.manual_seed(0)
layers = nn.ModuleList(nn.Linear(5, 5) for _ in range(3))
x = torch.randn(4, 5)
outs = []
for h in run_layers(layers, x):
    F.dropout(h, p=0.2, training=True, inplace=True)  # culprit
    outs.append(h)
loss = outs[-1].pow(2).mean()
loss.backward()
print(layers[0].weight.grad.norm().item())
