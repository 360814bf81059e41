# source: XNOR-Net / Bi-Real-Net style binary CNN (BinActive autograd.Function with straight-through estimator)
# Binary residual network with sign activations and scaled binary weights, trained one step on random data.
import torch
import torch.nn as nn
import torch.nn.functional as F


class BinActive(torch.autograd.Function):
    """Binarize the input activations with a straight-through estimator."""

    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.sign()

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input.ge(1)] = 0
        grad_input[input.le(-1)] = 0
        return grad_input


class BinConv2d(nn.Conv2d):
    def forward(self, x):
        w = self.weight
        scale = w.abs().mean(dim=(1, 2, 3), keepdim=True).detach()
        bw = w + (scale * torch.sign(w) - w).detach()
        return F.conv2d(x, bw, None, self.stride, self.padding)


class BinaryBasicBlock(nn.Module):
    def __init__(self, channels, stride=1):
        super().__init__()
        self.conv = BinConv2d(channels, channels, 3, stride=stride, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(channels)
        self.act = nn.PReLU(channels)

    def forward(self, x):
        out = BinActive.apply(x)
        out = self.conv(out)
        out = self.bn(out)
        x += out  # culprit
        return self.act(x)


class BiRealNet(nn.Module):
    def __init__(self, num_blocks=3, channels=16, num_classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, channels, 3, padding=1, bias=False), nn.BatchNorm2d(channels))
        self.blocks = nn.Sequential(*[BinaryBasicBlock(channels) for _ in range(num_blocks)])
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(channels, num_classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.fc(self.pool(x).flatten(1))


torch.manual_seed(0)
model = BiRealNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(2):
    x, y = torch.randn(4, 3, 16, 16), torch.randint(0, 10, (4,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    for m in model.modules():
        if isinstance(m, BinConv2d):
            m.weight.data.clamp_(-1.0, 1.0)
    print(step, loss.item())
