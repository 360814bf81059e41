# Hand-written batch norm: batch statistics normalise in training; running statistics on self are updated
# in place under no_grad from detached batch statistics and only read in eval mode
import torch
import torch.nn as nn


class MyBN(nn.Module):
    def __init__(self, d, momentum=0.1):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.register_buffer("running_mean", torch.zeros(d))
        self.register_buffer("running_var", torch.ones(d))
        self.momentum = momentum

    def _update(self, mean, var):
        with torch.no_grad():
            self.running_mean.mul_(1 - self.momentum).add_(mean.detach(), alpha=self.momentum)
            self.running_var.mul_(1 - self.momentum).add_(var.detach(), alpha=self.momentum)

    def forward(self, x):
        if self.training:
            mean, var = x.mean(0), x.var(0, unbiased=False)
            self._update(mean, var)
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + 1e-5) * self.weight


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 6), MyBN(6), nn.Linear(6, 1))
for _ in range(2):
    net(torch.randn(8, 4)).pow(2).mean().backward()
net.eval()
print(net(torch.randn(2, 4)).detach(), net[1].running_mean)
