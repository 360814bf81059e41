# CLIP-style contrastive head: the learnable temperature is clamped in place inside forward
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class ContrastiveHead(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.img = nn.Linear(d, d)
        self.txt = nn.Linear(d, d)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, i, t):
        self.logit_scale.clamp_(0, math.log(100))  # culprit
        fi = F.normalize(self.img(i), dim=-1)
        ft = F.normalize(self.txt(t), dim=-1)
        return self.logit_scale.exp() * fi @ ft.T


torch.manual_seed(0)
head = ContrastiveHead(4)
logits = head(torch.randn(3, 4), torch.randn(3, 4))
F.cross_entropy(logits, torch.arange(3)).backward()
print(head.logit_scale.grad)
