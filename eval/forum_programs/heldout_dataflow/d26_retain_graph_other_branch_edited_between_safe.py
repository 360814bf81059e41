# Two heads trained with two backward calls on one retained graph: between them the first head's sigmoid
# output is thresholded in place. The second loss never reaches that sigmoid, so nothing stale is read.
import torch
import torch.nn as nn

torch.manual_seed(0)
trunk = nn.Linear(5, 8)
head_a = nn.Linear(8, 1)
head_b = nn.Linear(8, 2)
x = torch.randn(6, 5)
h = torch.relu(trunk(x))
pa = torch.sigmoid(head_a(h))
pb = head_b(h)
loss_a = nn.functional.binary_cross_entropy(pa, torch.ones(6, 1))
loss_a.backward(retain_graph=True)
pa.detach().gt_(0.5)
loss_b = pb.pow(2).mean()
loss_b.backward()
print(trunk.weight.grad.norm().item(), pa.sum().item())
