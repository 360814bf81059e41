# Module-level cache holding the pre-activation of a ReLU layer; perturbing it in place later is harmless
# because ReLU saves its output and the linear layer does not save its result
import torch
import torch.nn as nn

CACHE = {}
enc = nn.Linear(5, 5)


def encode(x):
    pre = enc(x)
    CACHE["pre"] = pre
    return torch.relu(pre)


def perturb_cached(std=0.05):
    pre = CACHE["pre"]
    pre.add_(torch.randn_like(pre) * std)


torch.manual_seed(0)
z = encode(torch.randn(3, 5))
perturb_cached()
loss = z.sum() + CACHE["pre"].pow(2).mean()
loss.backward()
print(enc.weight.grad.norm().item())
