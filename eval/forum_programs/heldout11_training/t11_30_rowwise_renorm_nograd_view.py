# source: training loop with a per-unit max-norm constraint using cached row views of the weight
# description: row views of the weight are created under no_grad at setup and later renormalised in place in grad mode
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
with torch.no_grad():
    rows = [model[0].weight[i] for i in range(model[0].out_features)]

for it in range(2):
    x = torch.randn(10, 8)
    y = torch.randint(0, 4, (10,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    norms = model[0].weight.detach().norm(dim=1).clamp(min=1.0)
    for r, n in zip(rows, norms):
        r.div_(n)  # culprit
    print(it, loss.item())
