# Source: https://github.com/pytorch/pytorch/issues/1926 (pytorch/pytorch#1926 "How to change the outputs of forward_hook?"); https://github.com/pytorch/pytorch/pull/74414 (PR #74414: a hook should modify the output by returning a new value)
# Unit kind: cross-function
# A hook factory builds a forward hook that zeroes masked attention weights by writing
# into the Softmax module's output (Softmax saves its result) in place.
import torch
import torch.nn as nn

torch.manual_seed(0)


def make_head_mask_hook(keep):
    def hook(module, inputs, output):
        output.mul_(keep)  # culprit
    return hook


def attend(q, k, v, softmax):
    return softmax(q @ k.transpose(-1, -2)) @ v


proj = nn.Linear(4, 12)
softmax = nn.Softmax(dim=-1)
softmax.register_forward_hook(make_head_mask_hook(torch.tensor([1.0, 0.0, 1.0])))
q, k, v = proj(torch.randn(3, 4)).chunk(3, dim=-1)
attend(q, k, v, softmax).sum().backward()
print("done")
