# Source: pytorch/pytorch#95617 and PR #74414 (forward hooks that modify a module's output
# or input in place; the hook runs after forward, on the very tensor autograd saved).
# Unit kind: function -- a hook function registered on an nn.Sigmoid gate rescales its output.
import torch
import torch.nn as nn

torch.manual_seed(0)
gate = nn.Sequential(nn.Linear(6, 6), nn.Sigmoid())
keep = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0, 1.0])


def prune_hook(module, inputs, output):
    output.mul_(keep)  # culprit


gate[1].register_forward_hook(prune_hook)
x = torch.randn(3, 6)
(gate(x) * x).sum().backward()
print("done")
