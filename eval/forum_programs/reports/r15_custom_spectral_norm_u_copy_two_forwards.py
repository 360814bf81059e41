# intended: AGI001
# like: SN-GAN issue, hand-written spectral norm updates the u buffer in place; D(real) and D(fake) before one backward
import torch
import torch.nn as nn
import torch.nn.functional as F


class SNLinear(nn.Module):
    def __init__(self, in_features, out_features, n_power_iterations=1, eps=1e-12):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features) * 0.1)
        self.bias = nn.Parameter(torch.zeros(out_features))
        self.n_power_iterations = n_power_iterations
        self.eps = eps
        self.register_buffer("u", F.normalize(torch.randn(out_features), dim=0, eps=eps))

    def forward(self, x):
        w = self.weight
        with torch.no_grad():
            u = self.u
            for _ in range(self.n_power_iterations):
                v = F.normalize(torch.mv(w.t(), u), dim=0, eps=self.eps)
                u = F.normalize(torch.mv(w, v), dim=0, eps=self.eps)
            self.u.copy_(u)  # culprit
        sigma = torch.dot(self.u, torch.mv(w, v))
        return F.linear(x, w / sigma, self.bias)


class Discriminator(nn.Module):
    def __init__(self, in_dim=4, hid=16):
        super().__init__()
        self.l1 = SNLinear(in_dim, hid)
        self.l2 = SNLinear(hid, hid)
        self.l3 = SNLinear(hid, 1)

    def forward(self, x):
        h = F.leaky_relu(self.l1(x), 0.1)
        h = F.leaky_relu(self.l2(h), 0.1)
        return self.l3(h)


class Generator(nn.Module):
    def __init__(self, z_dim=8, out_dim=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 16), nn.ReLU(), nn.Linear(16, out_dim))

    def forward(self, z):
        return self.net(z)


def main():
    torch.manual_seed(0)
    G, D = Generator(), Discriminator()
    optD = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.0, 0.9))
    optG = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.0, 0.9))
    for it in range(2):
        real = torch.randn(8, 4) + 2.0
        fake = G(torch.randn(8, 8))
        # hinge loss for D
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
