# probe: add/sub save nothing, so writing their result in place before backward is fine
import torch

torch.manual_seed(0)


def residual_mix(a, b, c):
    return a + b - c


def main():
    a = torch.randn(4, 8, requires_grad=True)
    b = torch.randn(4, 8, requires_grad=True)
    c = torch.randn(4, 8, requires_grad=True)
    h = residual_mix(a, b, c)
    h.mul_(2.0)
    h.add_(1.0)
    loss = h.pow(2).mean()
    loss.backward()
    print("grad norm", a.grad.norm().item())


if __name__ == "__main__":
    main()
