# Source: idiap/fast-transformers PR #10 ("Replace inplace operations in recurrent linear
# attention": in-place updates of the Si / Zi state broke backward when chained to other modules).
# Unit kind: method -- attend() reads the state, update_state() adds into it in place.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RecurrentLinearAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.Si = None
        self.Zi = None

    def attend(self, Q):
        num = torch.einsum("nd,ndm->nm", Q, self.Si)
        den = torch.einsum("nd,nd->n", Q, self.Zi) + 1e-6
        return num / den[:, None]

    def update_state(self, K, V):
        if self.Si is None:
            self.Si = torch.einsum("nd,nm->ndm", K, V)
            self.Zi = K.clone()
        else:
            self.Si += torch.einsum("nd,nm->ndm", K, V)  # culprit
            self.Zi = self.Zi + K

    def forward(self, x):
        Q, K = F.elu(self.q(x)) + 1, F.elu(self.k(x)) + 1
        self.update_state(K, self.v(x))
        return self.attend(Q)


att = RecurrentLinearAttention(4)
outs = [att(torch.randn(2, 4)) for _ in range(3)]
torch.stack(outs).sum().backward()
print("done")
