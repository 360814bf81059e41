# source: BiT ResNetV2 StdConv2d (google-research/big_transfer, timm std_conv) with GroupNorm pre-activation blocks
# weight standardization done in place on self.weight (a leaf Parameter) inside forward: w.sub_(mean).div_(std)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


class StdConv2d(nn.Conv2d):
    def __init__(self, *args, eps=1e-6, **kwargs):
        super().__init__(*args, **kwargs)
        self.eps = eps

    def forward(self, x):
        w = self.weight
        mean = w.mean(dim=(1, 2, 3), keepdim=True)
        var = w.var(dim=(1, 2, 3), keepdim=True, unbiased=False)
        w.sub_(mean).div_(torch.sqrt(var + self.eps))  # culprit
        return F.conv2d(x, w, self.bias, self.stride, self.padding, self.dilation, self.groups)


class PreActBottleneck(nn.Module):
    def __init__(self, cin, cout, cmid, stride=1):
        super().__init__()
        self.gn1 = nn.GroupNorm(4, cin)
        self.conv1 = StdConv2d(cin, cmid, 1, bias=False)
        self.gn2 = nn.GroupNorm(4, cmid)
        self.conv2 = StdConv2d(cmid, cmid, 3, stride=stride, padding=1, bias=False)
        self.gn3 = nn.GroupNorm(4, cmid)
        self.conv3 = StdConv2d(cmid, cout, 1, bias=False)
        self.downsample = StdConv2d(cin, cout, 1, stride=stride, bias=False) if (stride != 1 or cin != cout) else None

    def forward(self, x):
        out = F.relu(self.gn1(x))
        residual = x if self.downsample is None else self.downsample(out)
        out = self.conv1(out)
        out = self.conv2(F.relu(self.gn2(out)))
        out = self.conv3(F.relu(self.gn3(out)))
        return out + residual


class ResNetV2Tiny(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = StdConv2d(3, 16, 3, padding=1, bias=False)
        self.body = nn.Sequential(PreActBottleneck(16, 32, 8), PreActBottleneck(32, 32, 8, stride=2))
        self.norm = nn.GroupNorm(4, 32)
        self.head = nn.Linear(32, classes)

    def forward(self, x):
        x = self.body(self.stem(x))
        x = F.relu(self.norm(x))
        return self.head(x.mean((2, 3)))


if __name__ == "__main__":
    model = ResNetV2Tiny()
    opt = PlainSGD(model.parameters(), lr=0.003, momentum=0.9)
    x = torch.randn(2, 3, 16, 16)
    y = torch.tensor([1, 8])
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())
