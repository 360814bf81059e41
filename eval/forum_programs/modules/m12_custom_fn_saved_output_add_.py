# intended: AGI001
# custom exp Function that saves its output for backward; the caller adds a floor to the output in place
import torch
import torch.nn as nn


class FastExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_out):
        (y,) = ctx.saved_tensors
        return grad_out * y


def positive_rates(h, floor=1e-4):
    r = FastExp.apply(h)
    r.add_(floor)  # culprit
    return r


class PoissonHead(nn.Module):
    def __init__(self, d, k):
        super().__init__()
        self.lin = nn.Linear(d, k)

    def forward(self, x):
        return positive_rates(self.lin(x))


def main():
    torch.manual_seed(0)
    head = PoissonHead(4, 3)
    x = torch.randn(5, 4)
    counts = torch.poisson(torch.full((5, 3), 2.0))
    rates = head(x)
    loss = nn.functional.poisson_nll_loss(rates, counts, log_input=False)
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
