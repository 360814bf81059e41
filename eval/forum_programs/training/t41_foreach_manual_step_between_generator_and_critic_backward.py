# intended: AGI001
"""A hand-written fused SGD step (``torch._foreach_add_`` under no_grad) run on the generator's
parameters after the critic's loss was built but before its backward: the generator's last Linear saved
its weight for its input's gradient, and the fused step moves the weight's version."""
import torch
from torch import nn


def run():
    torch.manual_seed(0)
    generator = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 4))
    critic = nn.Linear(4, 1)
    params = list(generator.parameters())
    fake = generator(torch.randn(3, 2))
    g_loss = -critic(fake).mean()
    g_loss.backward(retain_graph=True)
    with torch.no_grad():
        torch._foreach_add_(params, [p.grad for p in params], alpha=-0.1)  # culprit
    d_loss = critic(fake).mean()
    d_loss.backward()
    return d_loss


if __name__ == "__main__":
    run()
