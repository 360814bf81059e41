# source: PyG GINConv + global_add_pool graph classifier (Xu et al.) in plain torch
# neighbour sums via scatter_add_ into zeros, (1 + eps) * x added in place to the aggregate, graph pooling index_add_ then /= counts
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


class GINConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(1))
        self.mlp = nn.Sequential(
            nn.Linear(cin, cout), nn.BatchNorm1d(cout), nn.ReLU(inplace=True), nn.Linear(cout, cout)
        )

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x)
        agg.scatter_add_(0, dst[:, None].expand(-1, x.size(1)), x[src])
        agg += (1 + self.eps) * x
        h = self.mlp(agg)
        h.relu_()
        return h


def global_mean_pool(x, batch, num_graphs):
    pooled = torch.zeros(num_graphs, x.size(1)).index_add_(0, batch, x)
    counts = torch.bincount(batch, minlength=num_graphs).clamp(min=1).float()
    pooled /= counts[:, None]
    return pooled


class GIN(nn.Module):
    def __init__(self, cin=5, hidden=16, classes=2, layers=3):
        super().__init__()
        self.convs = nn.ModuleList([GINConv(cin, hidden)] + [GINConv(hidden, hidden) for _ in range(layers - 1)])
        self.head = nn.Sequential(nn.Linear(hidden * layers, hidden), nn.ReLU(inplace=True), nn.Linear(hidden, classes))

    def forward(self, x, edge_index, batch, num_graphs):
        readouts = []
        for i, conv in enumerate(self.convs):
            h = conv(x, edge_index)
            x = h if i == 0 else x + h
            readouts.append(global_mean_pool(x, batch, num_graphs))
        return self.head(torch.cat(readouts, dim=1))


def make_batch(num_graphs=4, nodes_per_graph=6, cin=5):
    xs, edges, batch = [], [], []
    for g in range(num_graphs):
        off = g * nodes_per_graph
        e = torch.randint(0, nodes_per_graph, (2, 12)) + off
        edges.append(torch.cat([e, e.flip(0)], 1))
        xs.append(torch.randn(nodes_per_graph, cin))
        batch.append(torch.full((nodes_per_graph,), g))
    return torch.cat(xs), torch.cat(edges, 1), torch.cat(batch)


if __name__ == "__main__":
    model = GIN()
    opt = PlainSGD(model.parameters(), lr=0.01)
    x, edge_index, batch = make_batch()
    y = torch.tensor([0, 1, 1, 0])
    for step in range(2):
        opt.zero_grad()
        loss = F.cross_entropy(model(x, edge_index, batch, 4), y)
        loss.backward()
        opt.step()
        print(step, loss.item())
