# probe: division saves its denominator; an unbound torch.Tensor.clamp_ call on the denominator afterwards makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def normalize_by(feats, scale):
    return feats / scale


def main():
    fc = nn.Linear(6, 6)
    x = torch.randn(4, 6)
    feats = fc(x)
    scale = feats.abs().sum(-1, keepdim=True) + 1.0
    out = normalize_by(feats, scale)
    torch.Tensor.clamp_(scale, min=1.5)  # culprit
    loss = out.sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
