# source: PyTorch-QAT / Brevitas-style fake quantisation with a straight-through estimator and min/max observers
# Conv-BN-ReLU network with a hand-written BatchNorm and per-tensor fake-quantised activations.
import torch
import torch.nn as nn
import torch.nn.functional as F
from functools import partial


class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, qmin, qmax):
        ctx.save_for_backward(x)
        ctx.bounds = (qmin * scale, qmax * scale)
        out = x.clone()
        out.div_(scale).round_().clamp_(qmin, qmax).mul_(scale)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        lo, hi = ctx.bounds
        mask = (x >= lo) & (x <= hi)
        return grad_out * mask, None, None, None


class MinMaxObserver(nn.Module):
    def __init__(self, bits=8, momentum=0.1):
        super().__init__()
        self.qmin, self.qmax = 0, 2 ** bits - 1
        self.momentum = momentum
        self.register_buffer("max_val", torch.tensor(1.0))

    @torch.no_grad()
    def observe(self, x):
        self.max_val.mul_(1 - self.momentum).add_(self.momentum * x.detach().max())

    def forward(self, x):
        if self.training:
            self.observe(x)
        scale = float(self.max_val.clamp(min=1e-8)) / self.qmax
        return FakeQuantSTE.apply(x, scale, self.qmin, self.qmax)


class BatchNorm2dManual(nn.Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.eps, self.momentum = eps, momentum
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))

    def forward(self, x):
        if self.training:
            mean = x.mean(dim=(0, 2, 3))
            var = x.var(dim=(0, 2, 3), unbiased=False)
            with torch.no_grad():
                n = x.numel() / x.size(1)
                self.running_mean.mul_(1 - self.momentum).add_(mean, alpha=self.momentum)
                self.running_var.mul_(1 - self.momentum).add_(var * n / (n - 1), alpha=self.momentum)
        else:
            mean, var = self.running_mean, self.running_var
        x_hat = (x - mean[None, :, None, None]) / torch.sqrt(var[None, :, None, None] + self.eps)
        return x_hat * self.weight[None, :, None, None] + self.bias[None, :, None, None]


class ConvBnAct(nn.Module):
    def __init__(self, cin, cout, stride=1, act_layer=partial(nn.ReLU, inplace=True), quant=True):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn = BatchNorm2dManual(cout)
        self.act = act_layer()
        self.quant = MinMaxObserver() if quant else nn.Identity()

    def forward(self, x):
        return self.quant(self.act(self.bn(self.conv(x))))


torch.manual_seed(0)
model = nn.Sequential(ConvBnAct(3, 16), ConvBnAct(16, 32, stride=2), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                      nn.Linear(32, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for step in range(3):
    x, y = torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
model.eval()
with torch.no_grad():
    print(model(torch.randn(2, 3, 16, 16)).argmax(1))
