# intended: AGI002
# Accumulating the epoch loss in a tensor so I can backward once at the end;
# I created the accumulator with requires_grad=True "so gradients flow".
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
crit = nn.L1Loss()
data = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]
total = torch.tensor(0.0, requires_grad=True)
for xb, yb in data:
    total += crit(model(xb), yb)  # culprit
opt.zero_grad()
total.backward()
opt.step()
print(total.item())
