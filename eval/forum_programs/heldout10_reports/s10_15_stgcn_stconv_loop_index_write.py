# source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/57
# STConv block: nested batch/time loop writes the graph-conv result back into the temporal-conv output, T[b][t] = graph_conv(T[b][t])
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TemporalConv(nn.Module):
    """Gated temporal convolution (GLU) over the time axis; input (B, T, N, C)."""

    def __init__(self, in_channels, out_channels, kernel_size=2):
        super().__init__()
        self.conv_1 = nn.Conv2d(in_channels, out_channels, (1, kernel_size))
        self.conv_2 = nn.Conv2d(in_channels, out_channels, (1, kernel_size))
        self.conv_3 = nn.Conv2d(in_channels, out_channels, (1, kernel_size))

    def forward(self, X):
        X = X.permute(0, 3, 2, 1)
        P = self.conv_1(X)
        Q = torch.sigmoid(self.conv_2(X))
        H = F.relu(P * Q + self.conv_3(X))
        return H.permute(0, 3, 2, 1)


class DenseGraphConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_channels, out_channels))
        self.bias = nn.Parameter(torch.zeros(out_channels))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x, edge_index, edge_weight):
        n = x.size(0)
        adj = torch.zeros(n, n)
        adj[edge_index[0], edge_index[1]] = edge_weight
        adj = adj + torch.eye(n)
        d_inv_sqrt = adj.sum(1).pow(-0.5)
        adj_hat = d_inv_sqrt.view(-1, 1) * adj * d_inv_sqrt.view(1, -1)
        return adj_hat @ (x @ self.weight) + self.bias


class STConv(nn.Module):
    def __init__(self, num_nodes, in_channels, hidden_channels, out_channels, kernel_size):
        super().__init__()
        self._temporal_conv1 = TemporalConv(in_channels, hidden_channels, kernel_size)
        self._graph_conv = DenseGraphConv(hidden_channels, hidden_channels)
        self._temporal_conv2 = TemporalConv(hidden_channels, out_channels, kernel_size)
        self._batch_norm = nn.BatchNorm2d(num_nodes)

    def forward(self, X, edge_index, edge_weight=None):
        T = self._temporal_conv1(X)
        for b in range(T.size(0)):
            for t in range(T.size(1)):
                T[b][t] = self._graph_conv(T[b][t], edge_index, edge_weight)  # culprit
        T = F.relu(T)
        T = self._temporal_conv2(T)
        T = T.permute(0, 2, 1, 3)
        T = self._batch_norm(T)
        T = T.permute(0, 2, 1, 3)
        return T


class STGCN(nn.Module):
    def __init__(self, num_nodes, in_ch, horizon):
        super().__init__()
        self.recurrent1 = STConv(num_nodes, in_ch, 8, 8, kernel_size=2)
        self.recurrent2 = STConv(num_nodes, 8, 8, 8, kernel_size=2)
        self.head = nn.Linear(8, horizon)

    def forward(self, x, edge_indices, edge_weights):
        h1 = self.recurrent1(x, edge_indices, edge_weights)
        h2 = self.recurrent2(h1, edge_indices, edge_weights)
        return self.head(h2[:, -1])


num_nodes, steps, in_ch = 6, 6, 2
edge_index = torch.tensor([[0, 1, 2, 3, 4, 5, 0, 2], [1, 2, 3, 4, 5, 0, 3, 5]])
edge_weight = torch.rand(edge_index.size(1))
model = STGCN(num_nodes, in_ch, horizon=3)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

x = torch.randn(2, steps, num_nodes, in_ch)
y = torch.randn(2, num_nodes, 3)
pred = model(x, edge_index, edge_weight)
loss = F.mse_loss(pred, y)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("loss", loss.item())
