# source: https://github.com/pyg-team/pytorch_geometric/issues/8953
# hand-rolled PyG-style MessagePassing (create_gnn tutorial shape) with max aggregation; update step does out += self.bias
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def add_self_loops(edge_index, num_nodes):
    loop = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loop], dim=1)


def degree(index, num_nodes, dtype):
    out = torch.zeros(num_nodes, dtype=dtype)
    return out.scatter_add_(0, index, torch.ones(index.numel(), dtype=dtype))


class MessagePassing(nn.Module):
    def __init__(self, aggr="add"):
        super().__init__()
        self.aggr = aggr

    def propagate(self, edge_index, x, **kwargs):
        row, col = edge_index
        x_j = x[row]
        msg = self.message(x_j, **kwargs)
        return self.aggregate(msg, col, x.size(0))

    def aggregate(self, msg, index, dim_size):
        idx = index.view(-1, 1).expand_as(msg)
        out = torch.zeros(dim_size, msg.size(1), dtype=msg.dtype)
        if self.aggr == "add":
            return out.scatter_add(0, idx, msg)
        return out.scatter_reduce(0, idx, msg, reduce="amax", include_self=False)


class GCNMaxConv(MessagePassing):
    def __init__(self, in_channels, out_channels):
        super().__init__(aggr="max")
        self.lin = nn.Linear(in_channels, out_channels, bias=False)
        self.bias = nn.Parameter(torch.empty(out_channels))
        self.reset_parameters()

    def reset_parameters(self):
        self.lin.reset_parameters()
        self.bias.data.zero_()

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

    def message(self, x_j, norm):
        return norm.view(-1, 1) * x_j


class Net(nn.Module):
    def __init__(self, in_dim, hid, n_cls):
        super().__init__()
        self.conv1 = GCNMaxConv(in_dim, hid)
        self.conv2 = GCNMaxConv(hid, n_cls)

    def forward(self, x, edge_index):
        x = F.relu(self.conv1(x, edge_index))
        x = F.dropout(x, p=0.5, training=self.training)
        return self.conv2(x, edge_index)


num_nodes, in_dim, n_cls = 30, 8, 3
x = torch.randn(num_nodes, in_dim)
edge_index = torch.randint(0, num_nodes, (2, 90))
y = torch.randint(0, n_cls, (num_nodes,))
train_mask = torch.rand(num_nodes) < 0.6

model = Net(in_dim, 16, n_cls)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
model.train()
for epoch in range(3):
    optimizer.zero_grad()
    out = model(x, edge_index)
    loss = F.cross_entropy(out[train_mask], y[train_mask])
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch}: loss={loss.item():.4f}")
