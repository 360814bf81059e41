# source: PyG SAGEConv (mean aggregation via scatter) + global_mean_pool for graph classification (TUDataset style)
# GraphSAGE graph classifier with scatter_add_ mean aggregation, in-place degree division and BN + inplace ReLU.
import torch
import torch.nn as nn
import torch.nn.functional as F


def scatter_mean(src, index, dim_size):
    out = src.new_zeros(dim_size, src.size(1))
    out.scatter_add_(0, index.unsqueeze(-1).expand_as(src), src)
    count = torch.zeros(dim_size).index_add_(0, index, torch.ones(index.numel()))
    out.div_(count.clamp(min=1).unsqueeze(-1))
    return out


class SAGEConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin_l = nn.Linear(in_dim, out_dim)
        self.lin_r = nn.Linear(in_dim, out_dim, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        aggr = scatter_mean(x[src], dst, x.size(0))
        return self.lin_l(aggr) + self.lin_r(x)


class SAGEClassifier(nn.Module):
    def __init__(self, in_dim, hidden, num_classes, num_layers=3):
        super().__init__()
        self.convs = nn.ModuleList()
        self.bns = nn.ModuleList()
        for i in range(num_layers):
            self.convs.append(SAGEConv(in_dim if i == 0 else hidden, hidden))
            self.bns.append(nn.BatchNorm1d(hidden))
        self.act = nn.ReLU(inplace=True)
        self.classifier = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(inplace=True), nn.Dropout(0.3),
                                        nn.Linear(hidden, num_classes))

    def forward(self, x, edge_index, batch, num_graphs):
        for i, (conv, bn) in enumerate(zip(self.convs, self.bns)):
            h = self.act(bn(conv(x, edge_index)))
            h = F.dropout(h, 0.2, self.training)
            x = h if i == 0 else x + h
        pooled = scatter_mean(x, batch, num_graphs)
        return self.classifier(pooled)


def make_batch(gen, sizes=(6, 7, 5, 8)):
    xs, edges, batch, offset = [], [], [], 0
    for g, n in enumerate(sizes):
        xs.append(torch.randn(n, 5, generator=gen))
        e = torch.randint(0, n, (2, 2 * n), generator=gen) + offset
        edges.append(torch.cat([e, e.flip(0)], dim=1))
        batch.append(torch.full((n,), g, dtype=torch.long))
        offset += n
    return torch.cat(xs), torch.cat(edges, dim=1), torch.cat(batch)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    x, edge_index, batch = make_batch(gen)
    y = torch.tensor([0, 1, 1, 0])
    model = SAGEClassifier(5, 16, 2)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    logits = model(x, edge_index, batch, num_graphs=4)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
