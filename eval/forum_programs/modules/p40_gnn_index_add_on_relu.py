# message passing: aggregating neighbour messages straight into the activated features
import torch
import torch.nn as nn


class GraphConv(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, x, edge_index):
        src, dst = edge_index
        h = torch.relu(self.lin(x))
        h.index_add_(0, dst, h[src])  # culprit
        return h


def main():
    torch.manual_seed(0)
    conv = GraphConv(4)
    x = torch.randn(5, 4)
    ei = torch.tensor([[0, 1, 2, 3], [1, 2, 3, 4]])
    conv(x, ei).sum().backward()
    print(conv.lin.weight.grad.norm())


if __name__ == "__main__":
    main()
