# Same helper-returns-dict shape: the caller masks the projected logits in place before they reach the
# loss; the attention map that softmax saved is left untouched
import torch
import torch.nn as nn
import torch.nn.functional as F


def encode(x, qkv, head):
    q, k, v = qkv(x).split(x.shape[-1], dim=-1)
    attn = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
    return {"attn": attn, "logits": head(attn @ v)}


torch.manual_seed(0)
qkv = nn.Linear(4, 12)
head = nn.Linear(4, 5)
res = encode(torch.randn(2, 3, 4), qkv, head)
res["logits"][..., 0] = -1e4
loss = F.cross_entropy(res["logits"].flatten(0, 1), torch.tensor([1, 2, 3, 4, 1, 2]))
loss.backward()
print(qkv.weight.grad.norm().item())
