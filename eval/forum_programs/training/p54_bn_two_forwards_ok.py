# intended: safe
# GAN discriminator with BatchNorm called twice before one backward (running stats updated in place).
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    D = nn.Sequential(nn.Linear(4, 16), nn.BatchNorm1d(16), nn.LeakyReLU(0.2, inplace=True), nn.Linear(16, 1))
    G = nn.Sequential(nn.Linear(2, 16), nn.BatchNorm1d(16), nn.ReLU(True), nn.Linear(16, 4))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
    real = torch.randn(16, 4)
    for _ in range(3):
        fake = G(torch.randn(16, 2)).detach()
        out_real, out_fake = D(real), D(fake)
        loss = torch.relu(1 - out_real).mean() + torch.relu(1 + out_fake).mean()
        opt_d.zero_grad()
        loss.backward()
        opt_d.step()
        print(loss.item(), D[1].running_mean[:2].tolist())

if __name__ == "__main__":
    main()
