# source: E(n)-equivariant GNN E_GCL (vgsatorras/egnn models/gcl.py) with edge_index, unsorted_segment_sum, coord update done in place
# Sparse EGNN layer: radial from indexed coordinate differences, messages summed with index_add_, coords updated with +=.
import torch
import torch.nn as nn
import torch.nn.functional as F


def unsorted_segment_sum(data, segment_ids, num_segments):
    out = data.new_zeros(num_segments, data.size(1))
    return out.index_add_(0, segment_ids, data)


class E_GCL(nn.Module):
    def __init__(self, h_dim, hidden=32):
        super().__init__()
        self.edge_mlp = nn.Sequential(nn.Linear(2 * h_dim + 1, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.node_mlp = nn.Sequential(nn.Linear(h_dim + hidden, hidden), nn.SiLU(), nn.Linear(hidden, h_dim))
        self.coord_mlp = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1, bias=False))

    def forward(self, h, coord, edge_index):
        row, col = edge_index
        coord_diff = coord[row] - coord[col]
        radial = (coord_diff ** 2).sum(1, keepdim=True)
        m_ij = self.edge_mlp(torch.cat([h[row], h[col], radial], dim=1))
        trans = coord_diff * self.coord_mlp(m_ij)
        coord += unsorted_segment_sum(trans, row, coord.size(0)) / 5.0
        agg = unsorted_segment_sum(m_ij, row, h.size(0))
        h = h + self.node_mlp(torch.cat([h, agg], dim=1))
        return h, coord


def full_edges(n):
    idx = torch.arange(n)
    row, col = idx.repeat_interleave(n), idx.repeat(n)
    keep = row != col
    return torch.stack([row[keep], col[keep]])


torch.manual_seed(0)
N = 6
edge_index = full_edges(N)
embed = nn.Linear(5, 16)
layers = nn.ModuleList([E_GCL(16) for _ in range(3)])
readout = nn.Linear(16, 1)
opt = torch.optim.Adam([*embed.parameters(), *layers.parameters(), *readout.parameters()], lr=1e-3)
feats, coords, target = torch.randn(N, 5), torch.randn(N, 3), torch.tensor(0.7)
for _ in range(2):
    h, x = embed(feats), coords.clone()
    for layer in layers:
        h, x = layer(h, x, edge_index)
    loss = (readout(h).sum() - target) ** 2 + 1e-3 * x.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
