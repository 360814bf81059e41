# intended: AGI002
# Plain SGD with torch._foreach_add_ over all parameters; I forgot the no_grad block.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
params = [p for p in model.parameters() if p.requires_grad]
x, y = torch.randn(6, 4), torch.randint(0, 2, (6,))
for step in range(2):
    loss = F.cross_entropy(model(x), y)
    model.zero_grad()
    loss.backward()
    torch._foreach_add_(params, [p.grad for p in params], alpha=-0.1)  # culprit
    print(step, loss.item())
