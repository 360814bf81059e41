# source: https://github.com/pytorch/pytorch/issues/114505 ("An inplace operation involved in torch.nn.functional.softplus")
# DeepAR-style probabilistic forecaster: GRU encoder, Gaussian head (mean, scale), trained with Gaussian NLL.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GaussianHead(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.Linear(hidden, 2)

    def forward(self, h):
        params = self.proj(h)                       # (..., 2): mean and pre-activation scale
        params[..., 1] = F.softplus(params[..., 1]) + 1e-6  # culprit
        return params


class DeepARLite(nn.Module):
    def __init__(self, n_covariates=3, hidden=24):
        super().__init__()
        self.rnn = nn.GRU(1 + n_covariates, hidden, num_layers=2, batch_first=True)
        self.head = GaussianHead(hidden)

    def forward(self, past_target, covariates):
        x = torch.cat([past_target.unsqueeze(-1), covariates], dim=-1)
        out, _ = self.rnn(x)
        return self.head(out)


def gaussian_nll(params, target):
    mu, sigma = params[..., 0], params[..., 1]
    return (torch.log(sigma) + 0.5 * ((target - mu) / sigma) ** 2).mean()


def make_batch(batch=8, length=20):
    t = torch.arange(length + 1, dtype=torch.float32)
    phase = torch.rand(batch, 1) * 6.28
    series = torch.sin(t / 3 + phase) + 0.1 * torch.randn(batch, length + 1)
    covariates = torch.stack([torch.sin(t / 3).expand(batch, -1), torch.cos(t / 3).expand(batch, -1),
                              (t / length).expand(batch, -1)], dim=-1)
    return series[:, :-1], covariates[:, 1:], series[:, 1:]


model = DeepARLite()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(3):
    past, cov, future = make_batch()
    params = model(past, cov)
    loss = gaussian_nll(params, future)
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    print(f"epoch {epoch}: nll {loss.item():.4f}")
