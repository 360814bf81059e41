# intended: AGI002
# I wrote my own optimizer (SGD with Nesterov-ish momentum) by subclassing
# torch.optim.Optimizer. Forgot the @torch.no_grad() on step().
import torch
import torch.nn as nn
import torch.nn.functional as F


class MySGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1, momentum=0.9):
        super().__init__(params, dict(lr=lr, momentum=momentum))

    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "buf" not in state:
                    state["buf"] = torch.zeros_like(p)
                buf = state["buf"]
                buf.mul_(group["momentum"]).add_(p.grad)
                p.add_(buf, alpha=-group["lr"])  # culprit


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 3))
opt = MySGD(model.parameters(), lr=0.05)
x, y = torch.randn(10, 6), torch.randint(0, 3, (10,))
for step in range(3):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
