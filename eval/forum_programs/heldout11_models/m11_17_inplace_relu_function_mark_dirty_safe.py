# source: memory-saving in-place activation as a custom autograd.Function (inplace_abn / apex style) in a conv stem
# description: the Function modifies its input in-place, calls ctx.mark_dirty and saves its output; BN output is not needed by anyone, so it runs cleanly
import torch
import torch.nn as nn


class InplaceLeakyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, slope):
        x.masked_scatter_(x < 0, x[x < 0] * slope)
        ctx.mark_dirty(x)
        ctx.slope = slope
        ctx.save_for_backward(x)
        return x

    @staticmethod
    def backward(ctx, grad_out):
        (y,) = ctx.saved_tensors
        grad_in = grad_out.clone()
        grad_in[y < 0] *= ctx.slope
        return grad_in, None


class ConvBNAct(nn.Module):
    def __init__(self, cin, cout, slope=0.01):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.slope = slope

    def forward(self, x):
        return InplaceLeakyReLU.apply(self.bn(self.conv(x)), self.slope)


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(ConvBNAct(3, 8), ConvBNAct(8, 8), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 3))
    x = torch.randn(2, 3, 8, 8)
    loss = nn.functional.cross_entropy(net(x), torch.tensor([0, 2]))
    loss.backward()
