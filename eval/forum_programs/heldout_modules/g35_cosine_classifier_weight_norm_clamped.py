# Cosine classifier: the weight norm is clamped in place before dividing
import torch
import torch.nn as nn
import torch.nn.functional as F


class CosineHead(nn.Module):
    def __init__(self, d, n_cls, s=10.0):
        super().__init__()
        self.W = nn.Parameter(torch.randn(n_cls, d))
        self.s = s

    def forward(self, h):
        wn = self.W.norm(dim=1, keepdim=True)
        wn.clamp_(min=1e-6)  # culprit
        hn = F.normalize(h, dim=1)
        return self.s * hn @ (self.W / wn).T


torch.manual_seed(0)
head = CosineHead(4, 3)
logits = head(torch.randn(5, 4))
F.cross_entropy(logits, torch.tensor([0, 1, 2, 0, 1])).backward()
print(head.W.grad.norm())
