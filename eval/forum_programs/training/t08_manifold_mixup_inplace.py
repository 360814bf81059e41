# intended: AGI001
# Manifold mixup: mixing hidden activations of the batch with a shuffled copy.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(12, 24)
        self.fc2 = nn.Linear(24, 24)
        self.out = nn.Linear(24, 4)

    def forward(self, x, perm=None, lam=1.0):
        h = torch.tanh(self.fc1(x))
        if perm is not None:
            h[:] = lam * h + (1 - lam) * h[perm]  # culprit
        h = torch.tanh(self.fc2(h))
        return self.out(h)


def main():
    torch.manual_seed(0)
    net = Net()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    x, y = torch.randn(16, 12), torch.randint(0, 4, (16,))
    for step in range(2):
        lam = float(torch.distributions.Beta(2.0, 2.0).sample())
        perm = torch.randperm(16)
        logits = net(x, perm, lam)
        loss = lam * F.cross_entropy(logits, y) + (1 - lam) * F.cross_entropy(logits, y[perm])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, f"{loss.item():.4f}")


if __name__ == "__main__":
    main()
