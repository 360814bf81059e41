# intended: AGI002
# WGAN critic weight clipping, translated from the paper's pseudo code.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
    C = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
    opt_c = torch.optim.RMSprop(C.parameters(), lr=5e-5)
    real = torch.randn(64, 2) + 2.0
    for it in range(5):
        fake = G(torch.randn(64, 4)).detach()
        loss_c = C(fake).mean() - C(real).mean()
        opt_c.zero_grad()
        loss_c.backward()
        opt_c.step()
        for p in C.parameters():
            p.clamp_(-0.01, 0.01)  # culprit
        print(it, loss_c.item())

if __name__ == "__main__":
    main()
