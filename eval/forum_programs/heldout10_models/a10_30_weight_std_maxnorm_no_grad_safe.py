# source: BiT / NFNet-style weight-standardized convs with a max-norm constraint and weight EMA (timm ModelEmaV2)
# standardization done out of place in forward; the Parameters are only edited in place under torch.no_grad() after opt.step()
import copy
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
    def __init__(self, *args, eps=1e-6, max_norm=2.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.eps = eps
        self.max_norm = max_norm

    def forward(self, x):
        w = self.weight
        mean = w.mean(dim=(1, 2, 3), keepdim=True)
        var = w.var(dim=(1, 2, 3), keepdim=True, unbiased=False)
        w = (w - mean) / torch.sqrt(var + self.eps)
        return F.conv2d(x, w, self.bias, self.stride, self.padding)

    @torch.no_grad()
    def apply_max_norm(self):
        self.weight.renorm_(2, 0, self.max_norm)


class PreActBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.gn1 = nn.GroupNorm(4, ch)
        self.conv1 = StdConv2d(ch, ch, 3, padding=1, bias=False)
        self.gn2 = nn.GroupNorm(4, ch)
        self.conv2 = StdConv2d(ch, ch, 3, padding=1, bias=False)
        self.gamma = nn.Parameter(torch.full((1, ch, 1, 1), 0.1))

    def forward(self, x):
        out = self.gn1(x)
        F.relu(out, inplace=True)
        out = self.conv1(out)
        out = self.gn2(out)
        out.relu_()
        out = self.conv2(out)
        out.mul_(self.gamma)
        return out.add_(x)


class Net(nn.Module):
    def __init__(self, classes=6):
        super().__init__()
        self.stem = StdConv2d(3, 16, 3, padding=1, bias=False)
        self.blocks = nn.Sequential(PreActBlock(16), PreActBlock(16))
        self.head = nn.Linear(16, classes)

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)).mean((2, 3)))


class ModelEma:
    def __init__(self, model, decay=0.9):
        self.module = copy.deepcopy(model).eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for ema_p, p in zip(self.module.parameters(), model.parameters()):
            ema_p.mul_(self.decay).add_(p, alpha=1 - self.decay)


if __name__ == "__main__":
    model = Net()
    ema = ModelEma(model)
    opt = PlainSGD(model.parameters(), lr=0.05, momentum=0.9)
    for step in range(2):
        x = torch.randn(2, 3, 8, 8)
        loss = F.cross_entropy(model(x), torch.tensor([0, 5]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        for m in model.modules():
            if isinstance(m, StdConv2d):
                m.apply_max_norm()
        with torch.no_grad():
            for blk in model.blocks:
                blk.gamma.clamp_(min=0.0)
        ema.update(model)
        print(step, loss.item())
