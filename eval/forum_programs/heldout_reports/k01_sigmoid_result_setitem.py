# source: https://github.com/pytorch/pytorch/issues/9391 (sigmoid output assigned by index, then backward)
import torch

torch.manual_seed(0)
a = torch.tensor([1, 2, 3.], requires_grad=True)
b = a.sigmoid()
print(b)
b[1] = 2  # culprit
b.sum().backward()
print(a.grad)
