# Source: https://github.com/pytorch/pytorch/pull/40884 (Tensor.__iter__ uses unbind, so in-place ops on the rows it yields hit "a function that returns multiple views" and are not allowed)
# Unit kind: cross-function
import torch

torch.manual_seed(0)


def clip_rows(scores, bound):
    for row in scores:
        row.clamp_(-bound, bound)  # culprit
    return scores


def embed(tokens, table):
    return table[tokens] * 2.0


table = torch.randn(10, 4, requires_grad=True)
tokens = torch.tensor([1, 3, 5])
scores = clip_rows(embed(tokens, table), bound=1.0)
scores.sum().backward()
print("ok")
