# intended: safe
# Same CLIP model, but the logit_scale clamp is done after opt.step() under no_grad,
# as open_clip does; the scale is read with .exp() in forward.
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
        a = F.normalize(self.img(im), dim=-1)
        b = F.normalize(self.txt(tx), dim=-1)
        return self.logit_scale.exp() * a @ b.t()


torch.manual_seed(0)
model = TinyCLIP()
opt = torch.optim.AdamW(model.parameters(), lr=1e-1)
im, tx = torch.randn(4, 10), torch.randn(4, 7)
labels = torch.arange(4)
for step in range(3):
    logits = model(im, tx)
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        model.logit_scale.clamp_(0, math.log(100))
    print(step, loss.item(), model.logit_scale.item())
