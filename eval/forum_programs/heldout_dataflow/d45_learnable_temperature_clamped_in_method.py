# Contrastive head with a learnable temperature; a method called from forward clamps the parameter in
# place, outside no_grad
import torch
import torch.nn as nn
import torch.nn.functional as F


class InfoNCE(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_tau = nn.Parameter(torch.tensor(-2.0))

    def _bound_tau(self):
        self.log_tau.clamp_(-4.6, 0.0)  # culprit

    def forward(self, a, b):
        self._bound_tau()
        sim = F.normalize(a, dim=-1) @ F.normalize(b, dim=-1).T / self.log_tau.exp()
        return F.cross_entropy(sim, torch.arange(a.shape[0]))


torch.manual_seed(0)
loss_fn = InfoNCE()
loss = loss_fn(torch.randn(4, 8), torch.randn(4, 8))
loss.backward()
print(loss.item())
