"""An attention step that reshapes its scores under ``no_grad`` to find the positions to mask (the
reshape of a contiguous tensor is a view), and masks through that view after the block."""
import torch
import torch.nn.functional as F


def attend(q, k, v, limit):
    scores = q @ k.transpose(-2, -1)
    with torch.no_grad():
        flat = scores.view(scores.shape[0], -1)
        too_far = flat > limit
    with torch.no_grad():
        flat[too_far] = -1e4  # expect: AGI004
    return F.softmax(scores, dim=-1) @ v


def run():
    torch.manual_seed(0)
    q = torch.randn(2, 4, 8, requires_grad=True)
    k = torch.randn(2, 4, 8, requires_grad=True)
    v = torch.randn(2, 4, 8, requires_grad=True)
    out = attend(q, k, v, 1.5)
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
