# Source: pytorch/pytorch#9391 (sigmoid output written in place; here masked out of place).
# Clean look-alike of hazard/008: the helper returns torch.where(...) instead of assigning.
# Unit kind: function.
import torch

torch.manual_seed(0)


def predict(w, x):
    return torch.sigmoid(x @ w)


def mask_ignored(probs, ignore):
    return torch.where(ignore[:, None], torch.zeros_like(probs), probs)


w = torch.randn(3, 1, requires_grad=True)
x = torch.randn(5, 3)
p = predict(w, x)
p = mask_ignored(p, torch.tensor([True, False, False, True, False]))
p.sum().backward()
print("done")
