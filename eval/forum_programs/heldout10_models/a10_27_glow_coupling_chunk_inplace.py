# source: Glow (openai/glow, rosinality/glow-pytorch) step of flow: ActNorm -> invertible 1x1 conv -> affine coupling
# xa, xb = x.chunk(2, 1) and the second half is transformed in place (xb.add_(shift); xb.mul_(scale))
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


class ActNorm(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, ch, 1, 1))
        self.logs = nn.Parameter(torch.zeros(1, ch, 1, 1))

    def forward(self, x):
        H, W = x.shape[2:]
        return (x + self.loc) * torch.exp(self.logs), H * W * self.logs.sum()


class InvConv1x1(nn.Module):
    def __init__(self, ch):
        super().__init__()
        w = torch.linalg.qr(torch.randn(ch, ch))[0]
        self.weight = nn.Parameter(w)

    def forward(self, x):
        H, W = x.shape[2:]
        logdet = H * W * torch.slogdet(self.weight)[1]
        return F.conv2d(x, self.weight[:, :, None, None]), logdet


class AffineCoupling(nn.Module):
    def __init__(self, ch, hidden=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(ch // 2, hidden, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(hidden, hidden, 1), nn.ReLU(inplace=True),
            nn.Conv2d(hidden, ch, 3, padding=1),
        )

    def forward(self, x):
        xa, xb = x.chunk(2, 1)
        h = self.net(xa)
        shift, scale_raw = h[:, 0::2], h[:, 1::2]
        scale = torch.sigmoid(scale_raw + 2.0)
        xb.add_(shift)  # culprit
        xb.mul_(scale)
        logdet = torch.log(scale).flatten(1).sum(1)
        return torch.cat([xa, xb], 1), logdet


class FlowStep(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.actnorm = ActNorm(ch)
        self.invconv = InvConv1x1(ch)
        self.coupling = AffineCoupling(ch)

    def forward(self, x):
        x, ld1 = self.actnorm(x)
        x, ld2 = self.invconv(x)
        x, ld3 = self.coupling(x)
        return x, ld1 + ld2 + ld3


def squeeze2d(x):
    B, C, H, W = x.shape
    x = x.view(B, C, H // 2, 2, W // 2, 2).permute(0, 1, 3, 5, 2, 4)
    return x.reshape(B, C * 4, H // 2, W // 2)


class TinyGlow(nn.Module):
    def __init__(self, ch=3, steps=2):
        super().__init__()
        self.steps = nn.ModuleList(FlowStep(ch * 4) for _ in range(steps))

    def forward(self, x):
        z = squeeze2d(x)
        logdet = torch.zeros(x.size(0))
        for step in self.steps:
            z, ld = step(z)
            logdet = logdet + ld
        log_pz = -0.5 * (z ** 2).flatten(1).sum(1)
        return -(log_pz + logdet).mean() / x[0].numel()


if __name__ == "__main__":
    model = TinyGlow()
    opt = PlainSGD(model.parameters(), lr=0.001)
    x = torch.rand(2, 3, 8, 8) - 0.5
    loss = model(x)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("bpd-ish", loss.item())
