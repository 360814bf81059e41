# intended: AGI001
# Attention-rollout distillation: each block caches its softmax attention map in a dict,
# and the rollout helper adds the identity to the cached maps in place before chaining them.
# softmax saved its result, which the dict holds.
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d, name, cache):
        super().__init__()
        self.qk = nn.Linear(d, 2 * d)
        self.v = nn.Linear(d, d)
        self.name, self.cache = name, cache

    def forward(self, x):
        q, k = self.qk(x).chunk(2, -1)
        attn = (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).softmax(-1)
        self.cache[self.name] = attn
        return x + attn @ self.v(x)


def rollout(cache, names):
    eye = torch.eye(next(iter(cache.values())).shape[-1])
    result = None
    for n in names:
        a = cache[n]
        a += eye  # culprit
        a = a / a.sum(-1, keepdim=True)
        result = a if result is None else a @ result
    return result


def main():
    torch.manual_seed(0)
    cache = {}
    blocks = nn.Sequential(*[Block(8, f"b{i}", cache) for i in range(3)])
    x = torch.randn(2, 5, 8)
    out = blocks(x)
    teacher_rollout = torch.full((2, 5, 5), 1 / 5)
    roll = rollout(cache, [f"b{i}" for i in range(3)])
    loss = out.pow(2).mean() + (roll - teacher_rollout).abs().mean()
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
