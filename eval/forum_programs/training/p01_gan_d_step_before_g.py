# intended: AGI001
# "RuntimeError: one of the variables needed for gradient computation has been modified"
# when training a simple GAN: I reuse d_fake for the generator loss.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
    D = nn.Sequential(nn.Linear(4, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
    bce = nn.BCEWithLogitsLoss()
    real = torch.randn(32, 4)
    for step in range(3):
        z = torch.randn(32, 8)
        fake = G(z)
        d_real = D(real)
        d_fake = D(fake)
        loss_d = bce(d_real, torch.ones_like(d_real)) + bce(d_fake, torch.zeros_like(d_fake))
        opt_d.zero_grad()
        loss_d.backward(retain_graph=True)
        opt_d.step()  # culprit
        loss_g = bce(d_fake, torch.ones_like(d_fake))
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
        print(step, loss_d.item(), loss_g.item())

if __name__ == "__main__":
    main()
