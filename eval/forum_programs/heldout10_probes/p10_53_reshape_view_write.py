# probe: reshape of a contiguous tensor returns a view sharing the version counter; zeroing a row of it makes the saved sigmoid output stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def flatten_tokens(t):
    return t.reshape(-1, t.shape[-1])


def main():
    fc = nn.Linear(4, 3)
    x = torch.randn(2, 5, 4)
    probs = torch.sigmoid(fc(x))
    flat = flatten_tokens(probs)
    flat[0].zero_()  # culprit
    loss = probs.sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
