# intended: safe
# custom Function saves its input and then clamps that input in place inside forward (no mark_dirty)
import torch
import torch.nn as nn


class SoftClipSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bound):
        ctx.save_for_backward(x)
        x.clamp_(-bound, bound)
        return x * x

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return 2 * x * grad_out, None


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 5)
        self.dec = nn.Linear(5, 1)

    def forward(self, x):
        return self.dec(SoftClipSquare.apply(self.enc(x), 1.0))


def main():
    torch.manual_seed(0)
    model = Model()
    x, y = torch.randn(6, 4) * 2, torch.randn(6, 1)
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    print(model.enc.weight.grad.norm().item())


if __name__ == "__main__":
    main()
