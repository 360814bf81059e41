# intended: AGI001
# WGAN critic: weight clipping through state_dict() (no requires_grad error that way),
# but done right after computing the loss instead of after the optimizer step.
import torch
import torch.nn as nn


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.main(x)

    def clip(self, c):
        for name, tensor in self.state_dict().items():
            tensor.clamp_(-c, c)  # culprit


def main():
    torch.manual_seed(0)
    critic = Critic()
    opt = torch.optim.RMSprop(critic.parameters(), lr=5e-5)
    real, fake = torch.randn(16, 2) + 2, torch.randn(16, 2)
    for i in range(3):
        loss = critic(fake).mean() - critic(real).mean()
        critic.clip(0.01)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(i, -loss.item())


if __name__ == "__main__":
    main()
