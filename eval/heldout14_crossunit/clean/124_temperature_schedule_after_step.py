# Source: https://github.com/mimoralea/gdrl/issues/13 (mimoralea/gdrl#13: the SAC alpha/temperature is updated in its own step and applied afterwards); the schedule tensor here never requires grad
# Unit kind: cross-class
# Look-alike of hazard/027 and hazard/037 (a buffer/state updated in place by another
# class): the logits are divided by a temperature buffer (the division saves it, although it
# never requires grad); the scheduler class decays that buffer in place -- after the
# backward and the optimizer step, so the save is no longer needed.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TemperedPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 3)
        self.register_buffer("temperature", torch.tensor(2.0))

    def forward(self, x):
        return F.log_softmax(self.net(x) / self.temperature, dim=-1)


class TemperatureScheduler:
    def __init__(self, policy, decay=0.9, minimum=0.5):
        self.policy, self.decay, self.minimum = policy, decay, minimum

    def step(self):
        self.policy.temperature.mul_(self.decay).clamp_(min=self.minimum)


policy = TemperedPolicy()
opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
sched = TemperatureScheduler(policy)
for _ in range(3):
    logp = policy(torch.randn(5, 4))
    loss = F.nll_loss(logp, torch.tensor([0, 1, 2, 1, 0]))
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
print(policy.temperature.item())
