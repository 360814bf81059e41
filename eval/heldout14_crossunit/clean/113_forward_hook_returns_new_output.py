# Source: https://github.com/pytorch/pytorch/pull/74414 (pytorch/pytorch PR #74414: "You can optionally modify the output of the module by returning a new value that will be replacing the output")
# Unit kind: cross-function
# Look-alike of hazard/015: the hook built by the factory returns a new, masked output
# instead of writing into the Softmax module's result.
import torch
import torch.nn as nn

torch.manual_seed(0)


def make_head_mask_hook(keep):
    def hook(module, inputs, output):
        return output * keep
    return hook


def attend(q, k, v, softmax):
    return softmax(q @ k.transpose(-1, -2)) @ v


proj = nn.Linear(4, 12)
softmax = nn.Softmax(dim=-1)
softmax.register_forward_hook(make_head_mask_hook(torch.tensor([1.0, 0.0, 1.0])))
q, k, v = proj(torch.randn(3, 4)).chunk(3, dim=-1)
attend(q, k, v, softmax).sum().backward()
print("done")
