# Source: NVIDIA/Megatron-LM PR #731 ("fix torch softmax masking: element-wise multiplication with
# mask after torch softmax"); here the post-softmax masking is done in place by the caller.
# Unit kind: class -- ScaledDotProduct returns softmax probs; MultiHead zeroes padded rows in place.
import torch
import torch.nn as nn

torch.manual_seed(0)


class ScaledDotProduct(nn.Module):
    def forward(self, q, k):
        return torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)


class MultiHead(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.core = ScaledDotProduct()

    def forward(self, x, pad_mask):
        q, k, v = self.qkv(x).split(x.shape[-1], -1)
        probs = self.core(q, k)
        probs.masked_fill_(pad_mask[:, :, None], 0.0)  # culprit
        return probs @ v


x = torch.randn(2, 4, 8)
pad = torch.tensor([[False, False, True, True], [False, False, False, True]])
MultiHead(8)(x, pad).sum().backward()
print("done")
