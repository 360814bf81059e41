# A @torch.no_grad() evaluation function computes input saliency inside torch.enable_grad(); the class
# probabilities are renormalised in place inside that block before the backward call
import torch
import torch.nn as nn


@torch.no_grad()
def evaluate_with_saliency(model, x, target):
    acc = (model(x).argmax(-1) == target).float().mean()
    with torch.enable_grad():
        x = x.clone().requires_grad_(True)
        probs = torch.softmax(model(x), dim=-1)
        probs.div_(probs.max(-1, keepdim=True).values)  # culprit
        probs.gather(1, target[:, None]).sum().backward()
    return acc, x.grad.abs().mean()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 3))
print(evaluate_with_saliency(model, torch.randn(6, 5), torch.tensor([0, 1, 2, 0, 1, 2])))
