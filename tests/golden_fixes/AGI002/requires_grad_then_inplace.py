"""``.requires_grad_()`` turns the tensor into a leaf that requires grad; an in-place add afterwards, outside
``no_grad``, raises at once."""
import torch


def run():
    torch.manual_seed(0)
    w = torch.randn(3).requires_grad_()
    with torch.no_grad():
        w += 1.0  # expect: AGI002
    loss = (w * torch.arange(3.0)).sum()
    loss.backward()
    return loss


if __name__ == "__main__":
    print(run())
