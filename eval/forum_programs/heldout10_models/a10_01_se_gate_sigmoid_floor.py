# source: timm / torchvision SqueezeExcitation (MobileNetV3 / EfficientNet style SE gate)
# SE gate = sigmoid(fc2(relu(fc1(pool(x))))) is floored in place with clamp_ before it rescales the features
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


class SqueezeExcite(nn.Module):
    def __init__(self, channels, rd_ratio=0.25, min_gate=0.05):
        super().__init__()
        rd = max(1, int(channels * rd_ratio))
        self.fc1 = nn.Conv2d(channels, rd, 1)
        self.act = nn.ReLU(inplace=True)
        self.fc2 = nn.Conv2d(rd, channels, 1)
        self.min_gate = min_gate

    def forward(self, x):
        s = x.mean((2, 3), keepdim=True)
        s = self.act(self.fc1(s))
        gate = torch.sigmoid(self.fc2(s))
        # keep every channel at least slightly open
        gate.clamp_(min=self.min_gate)  # culprit
        return x * gate


class SEBasicBlock(nn.Module):
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.se = SqueezeExcite(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout)
            )

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = self.se(out)
        out += identity
        return self.relu(out)


class TinySEResNet(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(inplace=True))
        self.layer1 = SEBasicBlock(16, 16)
        self.layer2 = SEBasicBlock(16, 32, stride=2)
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        x = self.layer2(self.layer1(self.stem(x)))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


def train_step(model, opt, images, labels):
    model.train()
    opt.zero_grad()
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    model = TinySEResNet()
    opt = PlainSGD(model.parameters(), lr=0.1, momentum=0.9)
    images = torch.randn(4, 3, 16, 16)
    labels = torch.randint(0, 5, (4,))
    print("loss", train_step(model, opt, images, labels))
