# Source: pytorch/pytorch PR #62293 ("Do not modify saved variables in-place for spectral norm
# during power iteration") and pytorch/pytorch#55368 (backprop twice through spectral_norm).
# Unit kind: class -- PowerIterState updates u in place; SNLinear's forward saved u in torch.dot.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PowerIterState:
    def __init__(self, rows):
        self.u = F.normalize(torch.randn(rows), dim=0)

    def step(self, w_mat):
        with torch.no_grad():
            v = F.normalize(w_mat.t() @ self.u, dim=0)
            self.u.copy_(F.normalize(w_mat @ v, dim=0))  # culprit
        return v


class SNLinear(nn.Module):
    def __init__(self, nin, nout):
        super().__init__()
        self.lin = nn.Linear(nin, nout)
        self.state = PowerIterState(nout)

    def forward(self, x):
        w_mat = self.lin.weight
        v = self.state.step(w_mat)
        sigma = torch.dot(self.state.u, w_mat @ v)
        return F.linear(x, w_mat / sigma, self.lin.bias)


D = nn.Sequential(SNLinear(4, 8), nn.LeakyReLU(0.2), SNLinear(8, 1))
real, fake = torch.randn(3, 4), torch.randn(3, 4)
loss = F.softplus(-D(real)).mean() + F.softplus(D(fake)).mean()
loss.backward()
print("done")
