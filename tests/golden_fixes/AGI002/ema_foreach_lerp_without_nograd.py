"""An EMA teacher updated with the fused ``torch._foreach_lerp_`` outside no_grad: the shadow copy made
by ``copy.deepcopy`` still requires grad (nobody called ``requires_grad_(False)``), so its parameters are
leaves that requires grad, and the fused in-place update is refused at once."""
import copy

import torch
from torch import nn


def ema_update(shadow, model, decay):
    with torch.no_grad():
        torch._foreach_lerp_(list(shadow.parameters()), list(model.parameters()), 1 - decay)  # expect: AGI002


def run():
    torch.manual_seed(0)
    model = nn.Linear(4, 2)
    shadow = copy.deepcopy(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = model(torch.randn(3, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema_update(shadow, model, 0.99)
    return loss


if __name__ == "__main__":
    print(run())
