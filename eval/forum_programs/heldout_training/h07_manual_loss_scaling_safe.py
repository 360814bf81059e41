# intended: safe
# Poor man's AMP: scale the loss in place, backward, unscale the grads in place,
# skip the step if any grad overflowed, adjust the scale.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 20), nn.SiLU(), nn.Linear(20, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
scale = 2.0 ** 10
x, y = torch.randn(16, 10), torch.randn(16, 1)
for step in range(3):
    pred = model(x)
    loss = F.mse_loss(pred, y)
    loss *= scale
    opt.zero_grad()
    loss.backward()
    finite = True
    for p in model.parameters():
        p.grad.div_(scale)
        finite &= bool(torch.isfinite(p.grad).all())
    if finite:
        opt.step()
        scale *= 2.0
    else:
        scale /= 2.0
    loss /= scale
    print(step, loss.item())
