# Input-gradient saliency with torch.autograd.grad (no retain_graph); afterwards the softmax output is
# sharpened in place for display. The graph was consumed already and no backward follows.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 3))
img = torch.randn(2, 6, requires_grad=True)
probs = torch.softmax(model(img), dim=-1)
score = probs[:, 0].sum()
(sal,) = torch.autograd.grad(score, img)
probs.pow_(2)
probs.div_(probs.sum(-1, keepdim=True))
print(sal.abs().mean().item(), probs.detach())
