# source: https://github.com/pytorch/pytorch/issues/9391 (second snippet: hand-written sigmoid, same index write runs)
import torch

torch.manual_seed(0)
a = torch.tensor([1, 2, 3.], requires_grad=True)
b = 1 / ((-a).exp() + 1)
print(b)
b[1] = 2
b.sum().backward()
print(a.grad)
