# source: GRU-D (Che et al. 2018, "Recurrent Neural Networks for Multivariate Time Series with Missing Values") hand-unrolled cell
# GRU-D: inputs imputed with learned decay, and the previous hidden state decayed in place before it enters the GRU gates.
import torch
import torch.nn as nn
import torch.nn.functional as F


class GRUDCell(nn.Module):
    def __init__(self, n_feat, hidden):
        super().__init__()
        self.decay_x = nn.Parameter(torch.zeros(n_feat))
        self.decay_h = nn.Linear(n_feat, hidden)
        self.x2h = nn.Linear(2 * n_feat, 3 * hidden)
        self.h2h = nn.Linear(hidden, 3 * hidden, bias=False)

    def forward(self, x, mask, delta, x_last, x_mean, h):
        gamma_x = torch.exp(-F.relu(self.decay_x * delta))
        x_hat = mask * x + (1 - mask) * (gamma_x * x_last + (1 - gamma_x) * x_mean)
        gamma_h = torch.exp(-F.relu(self.decay_h(delta)))
        h.mul_(gamma_h)
        gx_r, gx_z, gx_n = self.x2h(torch.cat([x_hat, mask], dim=1)).chunk(3, 1)
        gh_r, gh_z, gh_n = self.h2h(h).chunk(3, 1)
        r = torch.sigmoid(gx_r + gh_r)
        z = torch.sigmoid(gx_z + gh_z)
        n = torch.tanh(gx_n + r * gh_n)
        return (1 - z) * n + z * h


class GRUD(nn.Module):
    def __init__(self, n_feat=4, hidden=12):
        super().__init__()
        self.cell = GRUDCell(n_feat, hidden)
        self.classifier = nn.Linear(hidden, 1)
        self.hidden = hidden

    def forward(self, X, M, D, X_last, x_mean):
        h = torch.zeros(X.size(0), self.hidden)
        for t in range(X.size(1)):
            h = self.cell(X[:, t], M[:, t], D[:, t], X_last[:, t], x_mean, h)
        return self.classifier(h).squeeze(-1)


torch.manual_seed(0)
B, T, Fdim = 4, 6, 4
M = (torch.rand(B, T, Fdim) > 0.3).float()
X = torch.randn(B, T, Fdim) * M
D = torch.rand(B, T, Fdim) * 3
X_last = torch.randn(B, T, Fdim)
model = GRUD(Fdim)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
y = torch.tensor([0.0, 1.0, 1.0, 0.0])
for _ in range(2):
    loss = F.binary_cross_entropy_with_logits(model(X, M, D, X_last, X.mean((0, 1))), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
