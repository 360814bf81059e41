# Adaptive input scaling: forward divides by a per-feature scale kept on self (not detached); a method
# called between forward and backward smooths that scale in place
import torch
import torch.nn as nn


class AdaptiveScale(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.scale = None

    def forward(self, x):
        h = self.fc(x)
        self.scale = h.std(0) + 1e-3
        return h / self.scale

    def smooth_scale(self, prior=1.0):
        self.scale.mul_(0.5).add_(0.5 * prior)  # culprit


torch.manual_seed(0)
m = AdaptiveScale(5)
y = m(torch.randn(9, 5))
m.smooth_scale()
y.pow(2).mean().backward()
print(m.fc.weight.grad.norm().item())
