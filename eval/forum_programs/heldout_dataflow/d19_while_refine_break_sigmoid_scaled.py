# Iterative mask refinement with a while loop and early break: each round damps the previous sigmoid
# mask in place before feeding it back
import torch
import torch.nn as nn

torch.manual_seed(0)
refine = nn.Linear(6, 6)
x = torch.randn(3, 6)
mask = torch.sigmoid(refine(x))
step = 0
while True:
    step += 1
    new = torch.sigmoid(refine(x * mask))
    if (new - mask).abs().max() < 1e-3 or step >= 4:
        break
    mask.mul_(0.5)  # culprit
    mask = mask + 0.5 * new
loss = (x * mask).pow(2).mean()
loss.backward()
print(step, refine.weight.grad.norm().item())
