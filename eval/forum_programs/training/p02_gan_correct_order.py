# intended: safe
# GAN training loop, D step on fake.detach(), then G step re-evaluating D.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(8, 16), nn.ReLU(inplace=True), nn.Linear(16, 4), nn.Tanh())
    D = nn.Sequential(nn.Linear(4, 16), nn.LeakyReLU(0.2, inplace=True), nn.Linear(16, 1))
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()
    real = torch.randn(32, 4).tanh()
    for step in range(3):
        z = torch.randn(32, 8)
        fake = G(z)
        d_real = D(real)
        d_fake = D(fake.detach())
        loss_d = bce(d_real, torch.ones_like(d_real)) + bce(d_fake, torch.zeros_like(d_fake))
        opt_d.zero_grad()
        loss_d.backward()
        opt_d.step()
        d_fake = D(fake)
        loss_g = bce(d_fake, torch.ones_like(d_fake))
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
        print(step, loss_d.item(), loss_g.item())

if __name__ == "__main__":
    main()
