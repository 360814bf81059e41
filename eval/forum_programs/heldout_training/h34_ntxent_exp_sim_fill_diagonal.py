# intended: AGI001
# My own NT-Xent following the paper's formula: exp(sim / tau), zero the diagonal
# in place, positives over the row sums.
import torch
import torch.nn as nn
import torch.nn.functional as F


def contrastive_loss(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    e = torch.exp(z @ z.t() / tau)
    e.fill_diagonal_(0)  # culprit
    n = z1.size(0)
    pos = torch.cat([e.diagonal(n), e.diagonal(-n)])
    return -(pos / e.sum(1)).log().mean()


torch.manual_seed(0)
enc = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 8))
opt = torch.optim.Adam(enc.parameters(), lr=1e-3)
x = torch.randn(6, 10)
loss = contrastive_loss(enc(x + 0.1 * torch.randn_like(x)), enc(x.flip(1)))
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
