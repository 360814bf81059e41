# intended: AGI003
# like: forum thread on a mixture density network, sigma.exp_() on a torch.split output of the head
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class MDN(nn.Module):
    def __init__(self, in_dim=1, out_dim=1, n_gaussians=3, hidden=24):
        super().__init__()
        self.K, self.D = n_gaussians, out_dim
        self.body = nn.Sequential(nn.Linear(in_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.head = nn.Linear(hidden, n_gaussians * (1 + 2 * out_dim))

    def forward(self, x):
        out = self.head(self.body(x))
        pi, mu, sigma = torch.split(out, [self.K, self.K * self.D, self.K * self.D], dim=1)
        sigma.exp_()  # culprit
        pi = F.softmax(pi, dim=1)
        return pi, mu.view(-1, self.K, self.D), sigma.view(-1, self.K, self.D)


def mdn_loss(pi, mu, sigma, y):
    y = y.unsqueeze(1).expand_as(mu)
    log_prob = -0.5 * ((y - mu) / sigma) ** 2 - torch.log(sigma) - 0.5 * math.log(2 * math.pi)
    log_prob = log_prob.sum(-1)
    return -torch.logsumexp(torch.log(pi + 1e-8) + log_prob, dim=1).mean()


def main():
    torch.manual_seed(0)
    x = torch.linspace(-1, 1, 64).unsqueeze(1)
    y = torch.sin(3 * x) + 0.1 * torch.randn_like(x)
    model = MDN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        pi, mu, sigma = model(x)
        loss = mdn_loss(pi, mu, sigma, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
