# source: PyTorch Geometric GATConv style attention message passing (edge softmax with index_add_)
# Two-layer graph attention network for node classification on a random graph.
import torch
import torch.nn as nn
import torch.nn.functional as F


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


def edge_softmax(src, index, num_nodes):
    # src: [E, H] scores, index: [E] target node of each edge
    src_max = torch.full((num_nodes, src.size(1)), float("-inf"))
    src_max = src_max.scatter_reduce(0, index[:, None].expand_as(src), src.detach(), reduce="amax")
    out = (src - src_max[index]).exp()
    denom = torch.zeros(num_nodes, src.size(1)).index_add_(0, index, out)
    return out / (denom[index] + 1e-16)


class GATConv(nn.Module):
    def __init__(self, in_channels, out_channels, heads=2, concat=True, negative_slope=0.2, dropout=0.1,
                 root_weight=True):
        super().__init__()
        self.heads, self.out_channels, self.concat = heads, out_channels, concat
        self.negative_slope, self.dropout, self.root_weight = negative_slope, dropout, root_weight
        self.lin = nn.Linear(in_channels, heads * out_channels, bias=False)
        self.att_src = nn.Parameter(torch.empty(1, heads, out_channels))
        self.att_dst = nn.Parameter(torch.empty(1, heads, out_channels))
        self.bias = nn.Parameter(torch.zeros(heads * out_channels if concat else out_channels))
        nn.init.xavier_uniform_(self.att_src)
        nn.init.xavier_uniform_(self.att_dst)

    def propagate(self, h, edge_index, alpha):
        src, dst = edge_index
        msg = h[src] * alpha.unsqueeze(-1)
        out = h if self.root_weight else torch.zeros_like(h)
        out.index_add_(0, dst, msg)  # culprit
        return out

    def forward(self, x, edge_index):
        N = x.size(0)
        h = self.lin(x).view(N, self.heads, self.out_channels)
        alpha_src = (h * self.att_src).sum(dim=-1)
        alpha_dst = (h * self.att_dst).sum(dim=-1)
        src, dst = edge_index
        alpha = F.leaky_relu(alpha_src[src] + alpha_dst[dst], self.negative_slope)
        alpha = edge_softmax(alpha, dst, N)
        alpha = F.dropout(alpha, p=self.dropout, training=self.training)
        out = self.propagate(h, edge_index, alpha)
        out = out.reshape(N, -1) if self.concat else out.mean(dim=1)
        return out + self.bias


class GAT(nn.Module):
    def __init__(self, in_dim, hidden, num_classes, heads=2):
        super().__init__()
        self.conv1 = GATConv(in_dim, hidden, heads=heads)
        self.conv2 = GATConv(hidden * heads, num_classes, heads=1, concat=False)

    def forward(self, x, edge_index):
        x = F.dropout(x, p=0.2, training=self.training)
        x = F.elu(self.conv1(x, edge_index))
        return self.conv2(x, edge_index)


torch.manual_seed(0)
num_nodes, num_edges = 20, 60
x = torch.randn(num_nodes, 8)
edge_index = add_self_loops(torch.randint(0, num_nodes, (2, num_edges)), num_nodes)
y = torch.randint(0, 3, (num_nodes,))
train_mask = torch.rand(num_nodes) < 0.6
model = GAT(8, 8, 3)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=5e-4)
for epoch in range(3):
    model.train()
    out = model(x, edge_index)
    loss = F.cross_entropy(out[train_mask], y[train_mask])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
