# source: https://discuss.pytorch.org/t/leaf-variable-was-used-in-an-inplace-operation/308
# Fixed hand-written SGD: parameter updates done inside torch.no_grad() as the thread suggests.
import torch

torch.manual_seed(0)

X = torch.randn(16, 3)
true_w = torch.tensor([[1.5], [-2.0], [0.5]])
y = X @ true_w + 0.1 * torch.randn(16, 1)

w = torch.zeros(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.1

for epoch in range(5):
    pred = X @ w + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
print("done", loss.item())
