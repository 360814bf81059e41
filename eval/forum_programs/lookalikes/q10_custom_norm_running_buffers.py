# intended: safe
# A hand-written batch norm that keeps running statistics in buffers and updates them in
# place during the forward pass (under no_grad), plus a batch counter buffer.
import torch
import torch.nn as nn


class MyBatchNorm(nn.Module):
    def __init__(self, c, momentum=0.1, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(c))
        self.bias = nn.Parameter(torch.zeros(c))
        self.register_buffer("running_mean", torch.zeros(c))
        self.register_buffer("running_var", torch.ones(c))
        self.register_buffer("num_batches", torch.zeros((), dtype=torch.long))
        self.momentum, self.eps = momentum, eps

    def forward(self, x):
        if self.training:
            mean = x.mean(0)
            var = x.var(0, unbiased=False)
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
                self.running_var.mul_(1 - self.momentum).add_(self.momentum * var)
                self.num_batches += 1
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias


def main():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(5, 8), MyBatchNorm(8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for step in range(4):
        x = torch.randn(16, 5)
        loss = (net(x) - x.sum(1, keepdim=True)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()
    print(net[1].num_batches.item(), net[1].running_mean[:3], net(torch.randn(2, 5)).shape)


if __name__ == "__main__":
    main()
