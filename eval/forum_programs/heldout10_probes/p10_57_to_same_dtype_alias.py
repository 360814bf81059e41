# probe: .to(float32) on a float32 tensor returns the same tensor, so scaling the "converted" copy in place makes the saved sigmoid output stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def as_float32(t):
    return t.to(torch.float32)


def main():
    fc = nn.Linear(4, 3)
    x = torch.randn(5, 4)
    probs = torch.sigmoid(fc(x))
    percent = as_float32(probs)
    percent.mul_(100.0)  # culprit
    loss = probs.sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
