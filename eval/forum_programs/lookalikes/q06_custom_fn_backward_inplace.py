# intended: safe
# Custom autograd Functions whose backward edits gradients in place: a clipped ReLU and a
# gradient-reversal layer with a scaled gradient. In-place work inside backward is not tracked.
import torch
import torch.nn as nn


class ClippedReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, cap):
        ctx.save_for_backward(x)
        ctx.cap = cap
        return x.clamp(0, cap)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        grad = grad_out.clone()
        grad[x < 0] = 0
        grad[x > ctx.cap] = 0
        return grad, None


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lam):
        ctx.lam = lam
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_out):
        g = grad_out.clone()
        g.mul_(-ctx.lam)
        g.clamp_(-1.0, 1.0)
        return g, None


def main():
    torch.manual_seed(0)
    feat = nn.Linear(8, 16)
    label_head = nn.Linear(16, 3)
    domain_head = nn.Linear(16, 2)
    x = torch.randn(10, 8)
    y = torch.randint(0, 3, (10,))
    d = torch.randint(0, 2, (10,))
    h = ClippedReLU.apply(feat(x), 6.0)
    loss = nn.functional.cross_entropy(label_head(h), y)
    loss = loss + nn.functional.cross_entropy(domain_head(GradReverse.apply(h, 0.3)), d)
    loss.backward()
    print(loss.item(), feat.weight.grad.abs().sum().item())


if __name__ == "__main__":
    main()
