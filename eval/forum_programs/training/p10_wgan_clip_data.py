# intended: safe
# WGAN critic weight clipping via .data, as in the reference implementation.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
    C = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
    opt_c = torch.optim.RMSprop(C.parameters(), lr=5e-5)
    opt_g = torch.optim.RMSprop(G.parameters(), lr=5e-5)
    real = torch.randn(64, 2) + 2.0
    for it in range(5):
        fake = G(torch.randn(64, 4))
        loss_c = C(fake.detach()).mean() - C(real).mean()
        opt_c.zero_grad()
        loss_c.backward()
        opt_c.step()
        for p in C.parameters():
            p.data.clamp_(-0.01, 0.01)
        loss_g = -C(fake).mean()
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
        print(it, loss_c.item(), loss_g.item())

if __name__ == "__main__":
    main()
