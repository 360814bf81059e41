# Source: https://github.com/sunlicai/MAE-DFER/issues/15 (sunlicai/MAE-DFER#15: modeling_finetune.py writes `x[:, 0] = f(x[:, 0])` after `messenger_tokens = rearrange(x[:, 0], ...)` feeds attention -> "modified by an inplace operation ... AsStridedBackward0"; fix: x[:, 0].clone())
# Unit kind: cross-class
# The messenger-attention module projects the messenger tokens, a view of x[:, 0]
# (the Linear saves that view); the local block writes the attended tokens back
# into x[:, 0].
import torch
import torch.nn as nn

torch.manual_seed(0)


class MessengerAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, tokens):
        q, k, v = self.qkv(tokens).chunk(3, dim=-1)
        attn = torch.softmax(q @ k.transpose(-1, -2) / q.size(-1) ** 0.5, dim=-1)
        return attn @ v


class LocalGlobalBlock(nn.Module):
    def __init__(self, d, windows_per_clip):
        super().__init__()
        self.local = nn.Linear(d, d)
        self.messenger = MessengerAttention(d)
        self.b = windows_per_clip

    def forward(self, x):
        x = self.local(x)
        bn, c = x.size(0), x.size(-1)
        messenger_tokens = x[:, 0].reshape(bn // self.b, self.b, c)
        out = self.messenger(messenger_tokens)
        x[:, 0] = out.reshape(bn, c)  # culprit
        return x


block = LocalGlobalBlock(4, windows_per_clip=2)
block(torch.randn(4, 3, 4)).mean().backward()
print("done")
