# source: online feature normaliser layer (RL "RunningMeanStd" moved inside the network)
# forward divides activations by the running_std buffer, then updates the buffers in place in no_grad before backward
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RunningFeatureNorm(nn.Module):
    def __init__(self, dim, momentum=0.01, eps=1e-5):
        super().__init__()
        self.momentum, self.eps = momentum, eps
        self.register_buffer("running_mean", torch.zeros(dim))
        self.register_buffer("running_std", torch.ones(dim))

    @torch.no_grad()
    def _update(self, h):
        m = self.momentum
        self.running_mean.mul_(1 - m).add_(m * h.mean(dim=0))
        self.running_std.mul_(1 - m).add_(m * (h.std(dim=0) + self.eps))  # culprit

    def forward(self, h):
        out = (h - self.running_mean) / self.running_std
        if self.training:
            self._update(h.detach())
        return out


class ValueNet(nn.Module):
    def __init__(self, obs_dim=6, hidden=32):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, hidden)
        self.norm = RunningFeatureNorm(hidden)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, obs):
        return self.fc2(torch.tanh(self.norm(self.fc1(obs)))).squeeze(-1)


def train(steps=3, batch=32):
    net = ValueNet()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for step in range(steps):
        obs = torch.randn(batch, 6) * 3
        returns = obs[:, 0] - obs[:, 1]
        loss = F.mse_loss(net(obs), returns)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
