# probe: unbind returns multiple views; scaling one of them in place is refused when the base requires grad
import torch
import torch.nn as nn

torch.manual_seed(0)


def scale_heads(h, scales):
    heads = h.unbind(1)
    for head, s in zip(heads, scales):
        head.mul_(s)  # culprit
    return torch.stack(heads, dim=1)


def main():
    fc = nn.Linear(4, 6)
    x = torch.randn(2, 4)
    h = fc(x).view(2, 3, 2)
    out = scale_heads(h, [1.0, 0.5, 0.25])
    loss = out.sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
