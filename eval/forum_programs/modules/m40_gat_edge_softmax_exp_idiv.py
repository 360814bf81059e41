# intended: AGI001
# GAT-style edge softmax done by hand: exp of edge scores, normalised in place by the per-node sum
import torch
import torch.nn as nn
import torch.nn.functional as F


class GATLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W = nn.Linear(d_in, d_out, bias=False)
        self.a = nn.Linear(2 * d_out, 1, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        z = self.W(x)
        e = F.leaky_relu(self.a(torch.cat([z[src], z[dst]], -1)).squeeze(-1), 0.2)
        e = torch.exp(e - e.max())
        denom = torch.zeros(x.size(0)).index_add_(0, dst, e)
        e /= denom[dst]  # culprit
        out = torch.zeros_like(z).index_add_(0, dst, e.unsqueeze(-1) * z[src])
        return F.elu(out)


def main():
    torch.manual_seed(0)
    gat = GATLayer(3, 4)
    x = torch.randn(5, 3)
    edges = torch.tensor([[0, 1, 2, 3, 4, 1, 2], [1, 2, 3, 4, 0, 0, 0]])
    loss = gat(x, edges).pow(2).sum()
    loss.backward()
    print(gat.a.weight.grad)


if __name__ == "__main__":
    main()
