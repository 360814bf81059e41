# source: "implement BatchNorm from scratch" tutorial, used inside a small classifier
# running_mean / running_var buffers updated in place in forward (no_grad); training normalises with batch statistics
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MyBatchNorm1d(nn.Module):
    def __init__(self, dim, momentum=0.1, eps=1e-5):
        super().__init__()
        self.momentum, self.eps = momentum, eps
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))
        self.register_buffer("running_mean", torch.zeros(dim))
        self.register_buffer("running_var", torch.ones(dim))
        self.register_buffer("num_batches_tracked", torch.tensor(0))

    def forward(self, x):
        if self.training:
            mean = x.mean(dim=0)
            var = x.var(dim=0, unbiased=False)
            with torch.no_grad():
                n = x.shape[0]
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
                self.running_var.mul_(1 - self.momentum).add_(self.momentum * var * n / (n - 1))
                self.num_batches_tracked += 1
        else:
            mean, var = self.running_mean, self.running_var
        x_hat = (x - mean) / torch.sqrt(var + self.eps)
        return self.weight * x_hat + self.bias


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 32)
        self.bn = MyBatchNorm1d(32)
        self.fc2 = nn.Linear(32, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.bn(self.fc1(x))))


def train(steps=3, batch=16):
    model = Classifier()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(steps):
        model.train()
        x = torch.randn(batch, 8)
        y = torch.randint(0, 3, (batch,))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.eval()
        with torch.no_grad():
            acc = (model(x).argmax(1) == y).float().mean()
        print(f"step {step}: loss={loss.item():.4f} acc={acc.item():.2f}")


if __name__ == "__main__":
    train()
