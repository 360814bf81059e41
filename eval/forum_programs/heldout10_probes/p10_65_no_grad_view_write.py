# probe: a view taken under torch.no_grad() of a tensor that requires grad cannot be written in place once grad mode is back on
import torch
import torch.nn as nn

torch.manual_seed(0)


def first_half(h):
    with torch.no_grad():
        return h[:, : h.shape[1] // 2]


def main():
    fc = nn.Linear(4, 6)
    x = torch.randn(3, 4)
    h = fc(x)
    head = first_half(h)
    head.mul_(0.5)  # culprit
    loss = h.sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
