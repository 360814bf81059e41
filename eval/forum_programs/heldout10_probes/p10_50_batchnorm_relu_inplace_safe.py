# probe: BatchNorm saves its input, not its output, so nn.ReLU(inplace=True) right after BatchNorm (and after conv) is fine
import torch
import torch.nn as nn

torch.manual_seed(0)


def make_net():
    return nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1),
        nn.BatchNorm2d(4),
        nn.ReLU(inplace=True),
        nn.Conv2d(4, 2, 3, padding=1),
        nn.ReLU(inplace=True),
    )


def main():
    net = make_net()
    x = torch.randn(2, 3, 8, 8)
    loss = net(x).pow(2).mean()
    loss.backward()
    print("grad", net[0].weight.grad.norm().item())


if __name__ == "__main__":
    main()
