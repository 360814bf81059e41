# Source: BaiTheBest/SparseLLM#13 (s_batch -= s_learning_rate * s_batch.grad raises "a leaf
# Variable that requires grad is being used in an in-place operation").
# Unit kind: function -- the gradient step on the auxiliary variable is a separate helper.
import torch

torch.manual_seed(0)


def descend(s_batch, lr):
    s_batch -= lr * s_batch.grad  # culprit
    return s_batch


def solve_chunk(W, X, target, lr=0.05):
    s_batch = (W @ X).detach().requires_grad_(True)
    loss_s = ((s_batch - target) ** 2).mean()
    loss_s.backward()
    return descend(s_batch, lr)


out = solve_chunk(torch.randn(4, 4), torch.randn(4, 3), torch.randn(4, 3))
print("done")
