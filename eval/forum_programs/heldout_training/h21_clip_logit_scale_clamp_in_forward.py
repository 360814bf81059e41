# intended: AGI002
# CLIP-style contrastive model with a learnable temperature. The paper clamps
# logit_scale to log(100); I do it at the start of forward().
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCLIP(nn.Module):
    def __init__(self):
        super().__init__()
        self.img = nn.Linear(10, 6)
        self.txt = nn.Linear(7, 6)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, im, tx):
        self.logit_scale.clamp_(0, math.log(100))  # culprit
        a = F.normalize(self.img(im), dim=-1)
        b = F.normalize(self.txt(tx), dim=-1)
        return self.logit_scale.exp() * a @ b.t()


torch.manual_seed(0)
model = TinyCLIP()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
im, tx = torch.randn(4, 10), torch.randn(4, 7)
logits = model(im, tx)
labels = torch.arange(4)
loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
