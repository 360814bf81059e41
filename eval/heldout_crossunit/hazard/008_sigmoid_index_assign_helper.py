# Source: pytorch/pytorch#9391 (b = a.sigmoid(); b[1] = 2; backward fails because sigmoid
# needs its own output).
# Unit kind: function -- a helper writes into the probabilities it is passed.
import torch

torch.manual_seed(0)


def predict(w, x):
    return torch.sigmoid(x @ w)


def mask_ignored(probs, ignore):
    probs[ignore] = 0.0  # culprit
    return probs


w = torch.randn(3, 1, requires_grad=True)
x = torch.randn(5, 3)
p = predict(w, x)
p = mask_ignored(p, torch.tensor([True, False, False, True, False]))
p.sum().backward()
print("done")
