# probe: the metadata-only in-place t_() still bumps the version counter, so transposing a saved exp output in place makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def kernel_weights(scores):
    w = torch.exp(scores)
    w.t_()  # culprit
    return w


def main():
    fc = nn.Linear(4, 3)
    x = torch.randn(5, 4)
    w = kernel_weights(fc(x))
    loss = w.sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
