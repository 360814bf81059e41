# A preallocated input buffer is reused across batches; the finally clause zeroes it right after the
# forward, before backward. nn.Linear saved that buffer (its input) to compute the weight gradient.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
buf = torch.zeros(6, 4)
data = [torch.randn(6, 4) for _ in range(2)]
for batch in data:
    buf.copy_(batch)
    try:
        pred = model(buf)
        loss = pred.pow(2).mean()
    finally:
        buf.zero_()  # culprit
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
