# Source: pytorch/pytorch PR #74414 (doc: "You can optionally modify the output of the module by
# returning a new value that will replace the output").
# Clean look-alike of hazard/019: the hook returns a new tensor.
# Unit kind: function.
import torch
import torch.nn as nn

torch.manual_seed(0)
gate = nn.Sequential(nn.Linear(6, 6), nn.Sigmoid())
keep = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0, 1.0])


def prune_hook(module, inputs, output):
    return output * keep


gate[1].register_forward_hook(prune_hook)
x = torch.randn(3, 6)
(gate(x) * x).sum().backward()
print("done")
