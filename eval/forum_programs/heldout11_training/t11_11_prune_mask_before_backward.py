# source: magnitude-pruning training loop that re-applies a fixed weight mask every iteration
# description: the mask is multiplied into the layer weight under no_grad between forward and backward
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
mask = (model[2].weight.abs() > 0.1).float()

for it in range(2):
    x = torch.randn(10, 8)
    y = torch.randint(0, 4, (10,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    with torch.no_grad():
        model[2].weight.mul_(mask)  # culprit
    loss.backward()
    opt.step()
    print(it, loss.item())
