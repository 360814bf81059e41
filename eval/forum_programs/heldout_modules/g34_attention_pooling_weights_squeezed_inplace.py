# Attention pooling that returns its weights; the weights are squeezed in place for the caller
import torch
import torch.nn as nn


class AttnPool(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.score = nn.Linear(d, 1)

    def forward(self, h):
        w = torch.softmax(self.score(h), dim=1)
        pooled = (w * h).sum(1)
        w.squeeze_(-1)  # culprit
        return pooled, w


torch.manual_seed(0)
pool = AttnPool(4)
h = torch.randn(2, 5, 4, requires_grad=True)
pooled, w = pool(h)
pooled.sum().backward()
print(pool.score.weight.grad.norm(), w.shape)
