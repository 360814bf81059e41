# source: Soft Actor-Critic Gaussian policy (spinning-up / pytorch-sac style), actor update only
# mean/log_std from .chunk(2, -1), out-of-place clamp then exp_(), tanh-squash correction subtracted in place from log_prob
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

OBS_DIM, ACT_DIM = 8, 2
LOG_STD_MIN, LOG_STD_MAX = -20.0, 2.0


class GaussianPolicy(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS_DIM, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, 2 * ACT_DIM)

    def forward(self, obs):
        mu, log_std = self.head(self.net(obs)).chunk(2, dim=-1)
        std = log_std.clamp(LOG_STD_MIN, LOG_STD_MAX).exp_()
        eps = torch.randn_like(mu)
        x_t = mu + std * eps
        y_t = torch.tanh(x_t)
        log_prob = -0.5 * eps.pow(2) - std.log() - 0.5 * math.log(2 * math.pi)
        log_prob -= torch.log(1 - y_t.pow(2) + 1e-6)
        return y_t, log_prob.sum(dim=-1, keepdim=True)


class QNet(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS_DIM + ACT_DIM, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1))


def train(steps=3, batch=32):
    policy, q1 = GaussianPolicy(), QNet()
    q1.requires_grad_(False)  # critic frozen during the actor update
    log_alpha = torch.zeros(1, requires_grad=True)
    pi_opt = torch.optim.Adam(policy.parameters(), lr=3e-4)
    alpha_opt = torch.optim.Adam([log_alpha], lr=3e-4)
    target_entropy = -float(ACT_DIM)
    for step in range(steps):
        obs = torch.randn(batch, OBS_DIM)
        action, log_prob = policy(obs)
        alpha = log_alpha.exp().detach()
        actor_loss = (alpha * log_prob - q1(obs, action)).mean()
        pi_opt.zero_grad()
        actor_loss.backward()
        pi_opt.step()

        alpha_loss = -(log_alpha * (log_prob.detach() + target_entropy)).mean()
        alpha_opt.zero_grad()
        alpha_loss.backward()
        alpha_opt.step()
        print(f"step {step}: actor={actor_loss.item():.4f} alpha={log_alpha.exp().item():.4f}")


if __name__ == "__main__":
    train()
