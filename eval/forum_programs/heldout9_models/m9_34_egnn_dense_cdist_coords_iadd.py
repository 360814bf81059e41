# source: E(n)-equivariant GNN layer (Satorras et al. 2021, vgsatorras/egnn E_GCL) in dense form with torch.cdist distances
# Dense EGNN layer on a fully connected point cloud; coordinates are updated in place after cdist has read them.
import torch
import torch.nn as nn
import torch.nn.functional as F


class DenseEGCL(nn.Module):
    def __init__(self, h_dim, hidden=32):
        super().__init__()
        self.edge_mlp = nn.Sequential(nn.Linear(2 * h_dim + 1, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.node_mlp = nn.Sequential(nn.Linear(h_dim + hidden, hidden), nn.SiLU(), nn.Linear(hidden, h_dim))
        self.coord_mlp = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1, bias=False))

    def forward(self, h, x, adj):
        B, N, _ = h.shape
        dist2 = torch.cdist(x, x).pow(2).unsqueeze(-1)
        hi = h.unsqueeze(2).expand(B, N, N, -1)
        hj = h.unsqueeze(1).expand(B, N, N, -1)
        m_ij = self.edge_mlp(torch.cat([hi, hj, dist2], dim=-1)) * adj.unsqueeze(-1)
        rel = x.unsqueeze(2) - x.unsqueeze(1)
        x += (rel * self.coord_mlp(m_ij)).sum(2) / (N - 1)  # culprit
        h = h + self.node_mlp(torch.cat([h, m_ij.sum(2)], dim=-1))
        return h, x


class EGNN(nn.Module):
    def __init__(self, in_dim=5, h_dim=16, n_layers=3):
        super().__init__()
        self.embed = nn.Linear(in_dim, h_dim)
        self.layers = nn.ModuleList([DenseEGCL(h_dim) for _ in range(n_layers)])
        self.readout = nn.Sequential(nn.Linear(h_dim, h_dim), nn.SiLU(), nn.Linear(h_dim, 1))

    def forward(self, feats, coords, adj):
        h, x = self.embed(feats), coords.clone()
        for layer in self.layers:
            h, x = layer(h, x, adj)
        return self.readout(h).sum(dim=(1, 2)), x


torch.manual_seed(0)
B, N = 2, 6
feats, coords = torch.randn(B, N, 5), torch.randn(B, N, 3)
adj = (1 - torch.eye(N)).expand(B, N, N)
target = torch.randn(B)
model = EGNN()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
energy, _ = model(feats, coords, adj)
loss = F.mse_loss(energy, target)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
