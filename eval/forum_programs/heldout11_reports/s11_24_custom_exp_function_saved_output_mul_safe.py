# source: https://github.com/linkedin/Liger-Kernel/issues/254
# Fixed: the gating op is done out of place so the tensor saved by Exponential stays intact.
import torch

torch.manual_seed(0)


class Exponential(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = torch.exp(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, out_grad):
        (out,) = ctx.saved_tensors
        return out_grad * out


def swiglu(a, b):
    return a * (torch.sigmoid(b) * b)


w = torch.randn(4, 4, requires_grad=True)
x = torch.randn(3, 4)
target = torch.randn(3, 4)
h = x @ w
x_exp = Exponential.apply(h)
y = swiglu(x_exp, h)
loss = ((y - target) ** 2).mean()
loss.backward()
print(w.grad.shape)
