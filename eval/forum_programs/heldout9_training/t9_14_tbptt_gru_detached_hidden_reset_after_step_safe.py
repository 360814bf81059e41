# source: recurrent A2C / R2D2-style rollouts: hidden state detached at the chunk boundary and zeroed for finished episodes
# Truncated BPTT over a GRU; after each step the carried hidden is detached and rows of finished episodes are zeroed in place.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RecurrentRegressor(nn.Module):
    def __init__(self, in_dim=5, hidden=24):
        super().__init__()
        self.gru = nn.GRU(in_dim, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x, h=None):
        out, h = self.gru(x, h)
        return self.head(out).squeeze(-1), h


model = RecurrentRegressor()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
n_envs, chunk = 6, 8
hidden = None

for it in range(4):
    x = torch.randn(n_envs, chunk, 5)
    target = x.sum(-1).cumsum(1) * 0.1
    pred, h_n = model(x, hidden)
    loss = F.smooth_l1_loss(pred, target)
    opt.zero_grad()
    loss.backward()
    opt.step()

    done = torch.rand(n_envs) < 0.3
    hidden = h_n.detach()
    hidden[:, done] = 0.0
    print(it, loss.item(), int(done.sum()))
