# Attention with a validation try/except: in the else branch the softmax weights are masked in place for
# the returned attention map, after they already multiplied the values
import torch
import torch.nn as nn


def attend(q, k, v, pad):
    probs = torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)
    try:
        out = probs @ v
        if out.isnan().any():
            raise ValueError("nan in attention")
    except ValueError:
        out = torch.zeros_like(v)
    else:
        probs.masked_fill_(pad[:, None, :], 0.0)  # culprit
    return out, probs


torch.manual_seed(0)
proj = nn.Linear(4, 12)
x = torch.randn(2, 5, 4)
q, k, v = proj(x).chunk(3, -1)
pad = torch.zeros(2, 5, dtype=torch.bool)
pad[:, -1] = True
out, attn = attend(q, k, v, pad)
out.sum().backward()
print(proj.weight.grad.norm().item())
