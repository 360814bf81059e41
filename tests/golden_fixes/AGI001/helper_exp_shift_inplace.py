"""A helper taking a tensor parameter: ``b = a.exp(); b += 1`` inside it is a hazard whatever the caller
passes, as long as ``a`` requires grad (which an unannotated parameter may)."""
import torch


def shifted_exp(a):
    b = a.exp()
    b = b + 1.0  # expect: AGI001
    return b


def run():
    torch.manual_seed(0)
    a = torch.randn(3, requires_grad=True)
    out = shifted_exp(a)
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
