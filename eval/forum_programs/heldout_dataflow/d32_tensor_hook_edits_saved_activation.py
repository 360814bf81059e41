# A tensor hook meant to log the gradient also "resets" the activation it was registered on, in place,
# during backward; the multiply that saved that activation has not run its backward yet
import torch
import torch.nn as nn

torch.manual_seed(0)
enc = nn.Linear(5, 4)
w = nn.Parameter(torch.randn(4))
x = torch.randn(3, 5)
h = torch.sigmoid(enc(x))
s = h * w
log = []


def hook(g):
    log.append(g.norm().item())
    h.zero_()  # culprit


s.register_hook(hook)
s.sum().backward()
print(log, enc.weight.grad)
