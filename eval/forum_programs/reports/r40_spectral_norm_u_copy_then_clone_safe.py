# intended: safe
# like: the fix from torch.nn.utils.spectral_norm -- update u/v in place under no_grad, then use clones for sigma
import torch
import torch.nn as nn
import torch.nn.functional as F


class SNConv2d(nn.Conv2d):
    def __init__(self, *args, n_power_iterations=1, eps=1e-12, **kwargs):
        super().__init__(*args, **kwargs)
        self.n_power_iterations, self.eps = n_power_iterations, eps
        h = self.weight.size(0)
        w = self.weight.numel() // h
        self.register_buffer("weight_u", F.normalize(torch.randn(h), dim=0, eps=eps))
        self.register_buffer("weight_v", F.normalize(torch.randn(w), dim=0, eps=eps))

    def compute_weight(self):
        weight_mat = self.weight.reshape(self.weight.size(0), -1)
        u, v = self.weight_u, self.weight_v
        if self.training:
            with torch.no_grad():
                for _ in range(self.n_power_iterations):
                    v = F.normalize(torch.mv(weight_mat.t(), u), dim=0, eps=self.eps, out=v)
                    u = F.normalize(torch.mv(weight_mat, v), dim=0, eps=self.eps, out=u)
                u = u.clone(memory_format=torch.contiguous_format)
                v = v.clone(memory_format=torch.contiguous_format)
        sigma = torch.dot(u, torch.mv(weight_mat, v))
        return self.weight / sigma

    def forward(self, x):
        return F.conv2d(x, self.compute_weight(), self.bias, self.stride, self.padding)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = SNConv2d(3, 8, 3, stride=2, padding=1)
        self.c2 = SNConv2d(8, 16, 3, stride=2, padding=1)
        self.fc = nn.Linear(16, 1)

    def forward(self, x):
        h = F.leaky_relu(self.c1(x), 0.1, inplace=True)
        h = F.leaky_relu(self.c2(h), 0.1, inplace=True)
        return self.fc(h.sum((2, 3)))


class Generator(nn.Module):
    def __init__(self, z_dim=8):
        super().__init__()
        self.fc = nn.Linear(z_dim, 8 * 4 * 4)
        self.up = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())

    def forward(self, z):
        return self.up(self.fc(z).view(-1, 8, 4, 4))


def main():
    torch.manual_seed(0)
    G, D = Generator(), Discriminator()
    optD = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.0, 0.9))
    optG = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.0, 0.9))
    for it in range(2):
        real = torch.rand(4, 3, 8, 8) * 2 - 1
        fake = G(torch.randn(4, 8))
        d_loss = F.relu(1.0 - D(real)).mean() + F.relu(1.0 + D(fake.detach())).mean()
        optD.zero_grad()
        d_loss.backward()
        optD.step()
        g_loss = -D(fake).mean()
        optG.zero_grad()
        g_loss.backward()
        optG.step()
        print(it, d_loss.item(), g_loss.item())


if __name__ == "__main__":
    main()
