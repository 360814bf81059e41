# source: discuss.pytorch.org thread "Implementing BatchNorm from scratch: updating running_mean/running_var in place" (running buffers updated under torch.no_grad() during training forward)
# look-alike: in-place buffer updates under no_grad touch tensors that the training-mode graph never uses
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MyBatchNorm1d(nn.Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.eps, self.momentum = eps, momentum
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))

    def _update_running_stats(self, mean, var, n):
        with torch.no_grad():
            self.running_mean.mul_(1 - self.momentum).add_(mean, alpha=self.momentum)
            self.running_var.mul_(1 - self.momentum).add_(var * n / (n - 1), alpha=self.momentum)

    def forward(self, x):
        if self.training:
            mean = x.mean(dim=0)
            var = x.var(dim=0, unbiased=False)
            self._update_running_stats(mean, var, x.size(0))
        else:
            mean, var = self.running_mean, self.running_var
        x_hat = (x - mean) / torch.sqrt(var + self.eps)
        return self.weight * x_hat + self.bias


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.bn1 = nn.Linear(6, 12), MyBatchNorm1d(12)
        self.fc2 = nn.Linear(12, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.bn1(self.fc1(x))))


model = MLP()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x, y = torch.randn(10, 6), torch.randint(0, 3, (10,))
for epoch in range(3):
    model.train()
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    print(epoch, loss.item(), acc)
