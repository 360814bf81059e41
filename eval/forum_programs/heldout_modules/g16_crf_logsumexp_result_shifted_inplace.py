# CRF forward algorithm that re-centres alpha in place each step "for numerical stability"
import torch
import torch.nn as nn


class CRFLayer(nn.Module):
    def __init__(self, K):
        super().__init__()
        self.trans = nn.Parameter(0.1 * torch.randn(K, K))

    def forward(self, em):
        alpha = em[:, 0]
        log_z = em.new_zeros(em.shape[0])
        for t in range(1, em.shape[1]):
            alpha = torch.logsumexp(alpha.unsqueeze(2) + self.trans, dim=1) + em[:, t]
            shift = alpha.max(-1, keepdim=True).values
            alpha -= shift
            log_z = log_z + shift.squeeze(-1)
        return log_z + torch.logsumexp(alpha, -1)


class CRFLayerLse(CRFLayer):
    def forward(self, em):
        alpha = em[:, 0]
        for t in range(1, em.shape[1]):
            alpha = torch.logsumexp(alpha.unsqueeze(2) + self.trans + em[:, t].unsqueeze(1), dim=1)
            alpha -= alpha.mean(-1, keepdim=True).detach()  # culprit
        return torch.logsumexp(alpha, -1)


torch.manual_seed(0)
em = torch.randn(2, 4, 3, requires_grad=True)
CRFLayer(3)(em).sum().backward()
crf = CRFLayerLse(3)
crf(em).sum().backward()
print(crf.trans.grad.norm())
