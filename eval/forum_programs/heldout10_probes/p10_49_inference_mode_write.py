# probe: an in-place write to a normal tensor inside torch.inference_mode() still bumps its version, so the saved sigmoid output becomes stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def calibrate(probs):
    with torch.inference_mode():
        probs.clamp_(0.1, 0.9)  # culprit


def main():
    fc = nn.Linear(4, 2)
    x = torch.randn(3, 4)
    probs = torch.sigmoid(fc(x))
    calibrate(probs)
    loss = probs.sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
