# Source: https://github.com/sniklaus/softmax-splatting/issues/50 (sniklaus/softmax-splatting#50: fixed by self.save_for_backward(tenIn.clone(), tenFlow.clone()))
# Unit kind: cross-class
# Look-alike of hazard/020: the custom Function saves clones of its inputs, so the
# context branch's in-place LeakyReLU on the features does not touch what was saved.
import torch
import torch.nn as nn

torch.manual_seed(0)


class _FunctionSplat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, ten_in, ten_metric):
        ctx.save_for_backward(ten_in.clone(), ten_metric.clone())
        return ten_in * torch.sigmoid(ten_metric)

    @staticmethod
    def backward(ctx, grad_out):
        ten_in, ten_metric = ctx.saved_tensors
        s = torch.sigmoid(ten_metric)
        return grad_out * s, grad_out * ten_in * s * (1 - s)


class Softsplat(nn.Module):
    def forward(self, ten_in, ten_metric):
        return _FunctionSplat.apply(ten_in, ten_metric)


class ContextBranch(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.act = nn.LeakyReLU(0.1, inplace=True)
        self.conv = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, feats):
        return self.conv(self.act(feats))


encoder = nn.Conv2d(3, 4, 3, padding=1)
splat, context = Softsplat(), ContextBranch(4)
feats = encoder(torch.randn(1, 3, 5, 5))
metric = torch.randn(1, 4, 5, 5, requires_grad=True)
warped = splat(feats, metric)
ctx_feats = context(feats)
(warped.sum() + ctx_feats.sum()).backward()
print("done")
