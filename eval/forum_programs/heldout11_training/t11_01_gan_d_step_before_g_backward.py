# source: DCGAN-style training loop where the generator reuses the discriminator's fake logits
# description: d_opt.step() updates D in place before g_loss backprops through the retained D(fake) graph
import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 8))
D = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
g_opt = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
d_opt = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()

for it in range(2):
    real = torch.randn(8, 8)
    z = torch.randn(8, 4)
    fake = G(z)
    d_real = D(real)
    d_fake = D(fake)
    d_loss = bce(d_real, torch.ones_like(d_real)) + bce(d_fake, torch.zeros_like(d_fake))
    d_opt.zero_grad()
    d_loss.backward(retain_graph=True)
    d_opt.step()  # culprit

    g_loss = bce(d_fake, torch.ones_like(d_fake))
    g_opt.zero_grad()
    g_loss.backward()
    g_opt.step()
    print(it, d_loss.item(), g_loss.item())
