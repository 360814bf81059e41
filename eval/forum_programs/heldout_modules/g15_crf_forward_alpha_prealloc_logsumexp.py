# Linear-chain CRF partition function with a preallocated alpha table filled step by step
import torch
import torch.nn as nn


class CRF(nn.Module):
    def __init__(self, K):
        super().__init__()
        self.trans = nn.Parameter(torch.randn(K, K) * 0.1)
        self.start = nn.Parameter(torch.zeros(K))

    def log_partition(self, emissions):
        B, T, K = emissions.shape
        alpha = emissions.new_zeros(B, T, K)
        alpha[:, 0] = emissions[:, 0] + self.start
        for t in range(1, T):
            nxt = alpha[:, t - 1].unsqueeze(2) + self.trans + emissions[:, t].unsqueeze(1)
            alpha[:, t] = torch.logsumexp(nxt, dim=1)
        return torch.logsumexp(alpha[:, -1], dim=-1)


torch.manual_seed(0)
crf = CRF(3)
proj = nn.Linear(4, 3)
em = proj(torch.randn(2, 5, 4))
crf.log_partition(em).sum().backward()
print(crf.trans.grad.norm(), proj.weight.grad.norm())
