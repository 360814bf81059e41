# intended: safe
# SimCLR NT-Xent: similarity matrix from normalised projections, self-similarity
# removed with fill_diagonal_ before cross-entropy.
import torch
import torch.nn as nn
import torch.nn.functional as F


def nt_xent(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / tau
    sim.fill_diagonal_(float("-inf"))
    n = z1.size(0)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(n)])
    return F.cross_entropy(sim, targets)


torch.manual_seed(0)
enc = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 8))
opt = torch.optim.Adam(enc.parameters(), lr=1e-3)
x = torch.randn(6, 10)
for step in range(2):
    loss = nt_xent(enc(x + 0.1 * torch.randn_like(x)), enc(x + 0.1 * torch.randn_like(x)))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
