# Hierarchical sampling: CDF from cumsum of the softmax weights, last bin forced to exactly 1 in place
import torch
import torch.nn as nn


class ProposalNet(nn.Module):
    def __init__(self, n_bins):
        super().__init__()
        self.logits = nn.Linear(3, n_bins)

    def forward(self, rays, u):
        w = torch.softmax(self.logits(rays), dim=-1)
        cdf = torch.cumsum(w, dim=-1)
        cdf[..., -1] = 1.0
        idx = torch.searchsorted(cdf.detach(), u)
        picked = torch.gather(cdf, -1, idx.clamp(max=cdf.shape[-1] - 1))
        return picked, w


torch.manual_seed(0)
net = ProposalNet(5)
picked, w = net(torch.randn(4, 3), torch.rand(4, 6))
(picked.sum() + (w * w).sum()).backward()
print(net.logits.weight.grad.norm())
