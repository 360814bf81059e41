# intended: safe
# Two-view training (two augmentations concatenated in one batch). For logging I take
# detached chunks of the logits and turn them into probabilities in place.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(5, 6)
y = torch.randint(0, 4, (5,))
views = torch.cat([x + 0.05 * torch.randn_like(x), x.flip(1)])
logits = model(views)
loss = F.cross_entropy(logits, y.repeat(2))
p1, p2 = logits.detach().chunk(2)
p1.sub_(p1.amax(1, keepdim=True)).exp_()
p1 /= p1.sum(1, keepdim=True)
p2.sub_(p2.amax(1, keepdim=True)).exp_()
p2 /= p2.sum(1, keepdim=True)
agree = (p1.argmax(1) == p2.argmax(1)).float().mean()
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item(), agree.item())
