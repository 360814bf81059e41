# source: https://github.com/pyg-team/pytorch_geometric/issues/8953 (tutorial conv ends with out += self.bias; "fails in some cases": here aggr='max')
import torch
from torch.nn import Linear, Parameter


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


def degree(index, num_nodes, dtype):
    out = torch.zeros(num_nodes, dtype=dtype)
    return out.index_add_(0, index, torch.ones(index.numel(), dtype=dtype))


class MaxGCNConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = Linear(in_channels, out_channels, bias=False)
        self.bias = Parameter(torch.empty(out_channels))
        self.reset_parameters()

    def reset_parameters(self):
        self.lin.reset_parameters()
        self.bias.data.zero_()

    def propagate(self, edge_index, x, norm):
        row, col = edge_index
        msg = self.message(x[row], norm)
        out = x.new_full((x.size(0), x.size(1)), float("-inf"))
        out = out.scatter_reduce(0, col.unsqueeze(1).expand_as(msg), msg, reduce="amax", include_self=False)
        return out

    def message(self, x_j, norm):
        return norm.view(-1, 1) * x_j

    def forward(self, x, edge_index):
        # Step 1: Add self-loops to the adjacency matrix.
        edge_index = add_self_loops(edge_index, num_nodes=x.size(0))
        # Step 2: Linearly transform node feature matrix.
        x = self.lin(x)
        # Step 3: Compute normalization.
        row, col = edge_index
        deg = degree(col, x.size(0), dtype=x.dtype)
        deg_inv_sqrt = deg.pow(-0.5)
        deg_inv_sqrt[deg_inv_sqrt == float('inf')] = 0
        norm = deg_inv_sqrt[row] * deg_inv_sqrt[col]
        # Step 4-5: Start propagating messages.
        out = self.propagate(edge_index, x=x, norm=norm)
        # Step 6: Apply a final bias vector.
        out += self.bias  # culprit
        return out


torch.manual_seed(0)
x = torch.randn(5, 3)
edge_index = torch.tensor([[0, 1, 1, 2, 3, 4], [1, 0, 2, 1, 4, 3]])
conv = MaxGCNConv(3, 4)
out = conv(x, edge_index)
loss = out.pow(2).sum()
loss.backward()
print(loss.item())
