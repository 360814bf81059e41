# classifier-guided sampling: the grad-enabled guidance step clamps the sample in place
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    denoise = nn.Linear(3, 3)
    clf = nn.Linear(3, 2)
    x = torch.randn(4, 3)
    for t in range(3):
        x = x.detach().requires_grad_(True)
        x0 = torch.tanh(denoise(x))
        logp = torch.log_softmax(clf(x0), dim=-1)[:, 1].sum()
        x0.clamp_(-0.9, 0.9)  # culprit
        (g,) = torch.autograd.grad(logp, x)
        x = x0 + 0.1 * g
    print(x.shape)


if __name__ == "__main__":
    main()
