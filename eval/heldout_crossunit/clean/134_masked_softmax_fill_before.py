# Source: NVIDIA/Megatron-LM PR #731 (masking around torch softmax); here the mask is applied to the
# scores with masked_fill_ before the softmax saves anything.
# Clean look-alike of hazard/045.
# Unit kind: class.
import torch
import torch.nn as nn

torch.manual_seed(0)


class ScaledDotProduct(nn.Module):
    def forward(self, q, k, key_pad):
        scores = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
        scores.masked_fill_(key_pad[:, None, :], float("-inf"))
        return torch.softmax(scores, dim=-1)


class MultiHead(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.core = ScaledDotProduct()

    def forward(self, x, pad_mask):
        q, k, v = self.qkv(x).split(x.shape[-1], -1)
        probs = self.core(q, k, pad_mask)
        return probs @ v


x = torch.randn(2, 4, 8)
pad = torch.tensor([[False, False, True, True], [False, False, False, True]])
MultiHead(8)(x, pad).sum().backward()
print("done")
