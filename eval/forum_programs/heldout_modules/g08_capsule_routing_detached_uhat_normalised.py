# Dynamic routing: predictions are detached for the inner iterations and L2-normalised in place there
import torch
import torch.nn as nn


def squash(s, dim=-1):
    n2 = (s * s).sum(dim, keepdim=True)
    return n2 / (1 + n2) * s / torch.sqrt(n2 + 1e-8)


class CapsLayer(nn.Module):
    def __init__(self, n_in, d_in, n_out, d_out, iters=3):
        super().__init__()
        self.W = nn.Parameter(0.1 * torch.randn(1, n_in, n_out, d_out, d_in))
        self.iters = iters

    def forward(self, u):
        u_hat = torch.matmul(self.W, u[:, :, None, :, None]).squeeze(-1)
        u_hat_d = u_hat.detach()
        u_hat_d /= u_hat_d.norm(dim=-1, keepdim=True) + 1e-8
        b = torch.zeros(u_hat.shape[:3])
        for i in range(self.iters):
            c = b.softmax(dim=2)
            if i == self.iters - 1:
                return squash((c.unsqueeze(-1) * u_hat).sum(1))
            v = squash((c.unsqueeze(-1) * u_hat_d).sum(1))
            b = b + (u_hat_d * v.unsqueeze(1)).sum(-1)


torch.manual_seed(0)
caps = CapsLayer(6, 4, 3, 5)
u = torch.randn(2, 6, 4, requires_grad=True)
v = caps(u)
v.norm(dim=-1).sum().backward()
print(caps.W.grad.norm(), u.grad.norm())
