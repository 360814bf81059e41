# source: timm StdConv2d / BiT ResNetV2 weight-standardized convolution
# description: weight is standardized out-of-place; a max-norm clamp on the Parameter runs under no_grad before any use, so it is fine
import torch
import torch.nn as nn
import torch.nn.functional as F


class StdConv2d(nn.Conv2d):
    def __init__(self, in_ch, out_ch, kernel_size, stride=1, padding=0, eps=1e-6, max_abs=0.5):
        super().__init__(in_ch, out_ch, kernel_size, stride=stride, padding=padding, bias=False)
        self.eps = eps
        self.max_abs = max_abs

    def standardized_weight(self):
        with torch.no_grad():
            self.weight.clamp_(-self.max_abs, self.max_abs)
        w = self.weight
        mean = w.mean(dim=(1, 2, 3), keepdim=True)
        var = w.var(dim=(1, 2, 3), keepdim=True, unbiased=False)
        w = w - mean
        return w / torch.sqrt(var + self.eps)

    def forward(self, x):
        return F.conv2d(x, self.standardized_weight(), None, self.stride, self.padding)


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(StdConv2d(3, 8, 3, padding=1), nn.GroupNorm(2, 8), nn.ReLU(inplace=True), StdConv2d(8, 4, 1))
    x = torch.randn(2, 3, 8, 8)
    loss = net(x).mean()
    loss.backward()
