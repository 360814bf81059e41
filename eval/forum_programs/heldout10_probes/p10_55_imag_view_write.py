# probe: .imag is a view sharing the version counter of its complex base; zeroing it makes the complex tensor saved by abs stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def magnitude(z):
    return z.abs()


def main():
    re_net = nn.Linear(3, 4)
    im_net = nn.Linear(3, 4)
    x = torch.randn(2, 3)
    z = torch.complex(re_net(x), im_net(x))
    mag = magnitude(z)
    z.imag.zero_()  # culprit
    loss = mag.sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
