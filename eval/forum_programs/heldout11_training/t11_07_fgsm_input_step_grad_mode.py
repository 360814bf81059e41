# source: FGSM adversarial training loop (Goodfellow et al.) perturbing the input batch in place
# description: the input leaf with requires_grad=True is stepped in place outside torch.no_grad()
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
eps = 0.1

for it in range(2):
    x = torch.randn(8, 10, requires_grad=True)
    y = torch.randint(0, 4, (8,))
    loss = F.cross_entropy(model(x), y)
    model.zero_grad()
    loss.backward()
    x.add_(eps * x.grad.sign())  # culprit
    adv_loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    adv_loss.backward()
    opt.step()
    print(it, adv_loss.item())
