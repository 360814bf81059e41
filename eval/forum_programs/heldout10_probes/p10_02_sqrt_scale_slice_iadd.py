# probe: sqrt saves its output; an augmented assignment on a slice of that output (a view) makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def rms_scale(h, eps=1e-6):
    energy = h.pow(2).mean(-1, keepdim=True) + eps
    return torch.sqrt(energy)


def main():
    layer = nn.Linear(5, 5)
    x = torch.randn(4, 5)
    h = layer(x)
    scale = rms_scale(h)
    scale[..., 0] += 1.0  # culprit
    y = h / scale
    loss = y.sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
