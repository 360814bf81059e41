# custom autograd.Function saves its input; caller then normalises the input in place
import torch
import torch.nn as nn


class ScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return scale * x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * ctx.scale * x * g, None


def energy(feats):
    e = ScaledSquare.apply(feats, 0.5)
    feats.div_(feats.norm(dim=-1, keepdim=True) + 1e-6)  # culprit
    return e.sum() + feats.sum()


def main():
    torch.manual_seed(0)
    enc = nn.Linear(4, 6)
    loss = energy(enc(torch.randn(3, 4)))
    loss.backward()
    print(enc.weight.grad.norm())


if __name__ == "__main__":
    main()
