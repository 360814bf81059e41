# in-place custom Function done right: mark_dirty + save the output
import torch
import torch.nn as nn


class InplaceSwish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        sig = torch.sigmoid(x)
        ctx.save_for_backward(x.clone(), sig)
        x.mul_(sig)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        x, sig = ctx.saved_tensors
        return g * (sig * (1 + x * (1 - sig)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.bn = nn.BatchNorm1d(8)
        self.fc2 = nn.Linear(8, 1)

    def forward(self, x):
        h = self.bn(self.fc1(x))
        h = InplaceSwish.apply(h)
        return self.fc2(h)


def main():
    torch.manual_seed(0)
    net = Net()
    net(torch.randn(5, 4)).sum().backward()
    print(net.fc1.weight.grad.norm())


if __name__ == "__main__":
    main()
