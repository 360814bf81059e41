# intended: AGI003
# Discriminator run once on cat([real, fake]); outputs split back with chunk.
# One-sided label smoothing implemented by shifting the real logits in place.
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
    D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
    real = torch.randn(8, 2)
    fake = G(torch.randn(8, 4)).detach()
    d_out = D(torch.cat([real, fake], dim=0))
    d_real, d_fake = d_out.chunk(2, dim=0)
    d_real.sub_(0.1)  # culprit
    loss_d = F.softplus(-d_real).mean() + F.softplus(d_fake).mean()
    opt_d.zero_grad()
    loss_d.backward()
    opt_d.step()
    print(loss_d.item())


if __name__ == "__main__":
    main()
