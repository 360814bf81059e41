# intended: safe
# like: forum question "can I keep LeakyReLU(inplace=True) in the WGAN-GP critic with the gradient penalty?"
import torch
import torch.nn as nn
import torch.autograd as autograd


class Critic(nn.Module):
    def __init__(self, in_dim=8, hid=32):
        super().__init__()
        self.model = nn.Sequential(
            nn.Linear(in_dim, hid),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(hid, hid),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(hid, 1),
        )

    def forward(self, x):
        return self.model(x)


class Generator(nn.Module):
    def __init__(self, z_dim=4, out_dim=8):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(inplace=True), nn.Linear(32, out_dim))

    def forward(self, z):
        return self.model(z)


def compute_gradient_penalty(D, real_samples, fake_samples):
    alpha = torch.rand(real_samples.size(0), 1)
    interpolates = (alpha * real_samples + (1 - alpha) * fake_samples).requires_grad_(True)
    d_interpolates = D(interpolates)
    gradients = autograd.grad(outputs=d_interpolates, inputs=interpolates,
                              grad_outputs=torch.ones_like(d_interpolates),
                              create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean()


def main():
    torch.manual_seed(0)
    G, D = Generator(), Critic()
    optimizer_G = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.5, 0.9))
    optimizer_D = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.5, 0.9))
    lambda_gp, n_critic = 10, 2
    for i in range(4):
        real_imgs = torch.randn(16, 8) + 1.0
        optimizer_D.zero_grad()
        z = torch.randn(16, 4)
        fake_imgs = G(z)
        real_validity = D(real_imgs)
        fake_validity = D(fake_imgs.detach())
        gradient_penalty = compute_gradient_penalty(D, real_imgs, fake_imgs.detach())
        d_loss = -torch.mean(real_validity) + torch.mean(fake_validity) + lambda_gp * gradient_penalty
        d_loss.backward()
        optimizer_D.step()
        if i % n_critic == 0:
            optimizer_G.zero_grad()
            g_loss = -torch.mean(D(G(z)))
            g_loss.backward()
            optimizer_G.step()
            print(i, d_loss.item(), g_loss.item())


if __name__ == "__main__":
    main()
