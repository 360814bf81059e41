# intended: safe
# magnitude pruning: masks re-applied to the weights at the start of forward by a @torch.no_grad() helper
import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.no_grad()
def apply_mask_(layer, mask):
    layer.weight.mul_(mask)


class PrunedMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 2)
        self.register_buffer("mask1", (torch.rand(8, 4) > 0.3).float())
        self.register_buffer("mask2", (torch.rand(2, 8) > 0.3).float())

    def forward(self, x):
        apply_mask_(self.fc1, self.mask1)
        x = F.relu(self.fc1(x))
        apply_mask_(self.fc2, self.mask2)
        return self.fc2(x)


def main():
    torch.manual_seed(0)
    net = PrunedMLP()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    x, y = torch.randn(6, 4), torch.tensor([0, 1, 1, 0, 1, 0])
    for _ in range(3):
        opt.zero_grad()
        loss = F.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
