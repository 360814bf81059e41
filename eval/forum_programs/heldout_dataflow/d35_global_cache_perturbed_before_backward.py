# Module-level cache of encoder activations (for a later consistency loss); a separate function perturbs
# the cached activation in place before the backward pass
import torch
import torch.nn as nn

CACHE = {}
enc = nn.Linear(5, 5)


def encode(x):
    h = torch.sigmoid(enc(x))
    CACHE["h"] = h
    return h * 2.0


def perturb_cached(std=0.05):
    h = CACHE["h"]
    h.add_(torch.randn_like(h) * std)  # culprit


torch.manual_seed(0)
z = encode(torch.randn(3, 5))
perturb_cached()
loss = z.sum() + CACHE["h"].pow(2).mean()
loss.backward()
print(enc.weight.grad.norm().item())
