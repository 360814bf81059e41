# intended: AGI001
# Sparse autoencoder with a KL sparsity penalty. The hidden sigmoid activations are
# collected in a list, and a helper clamps each one in place to keep log() finite.
# sigmoid saved its result, which the list aliases.
import torch
import torch.nn as nn
import torch.nn.functional as F


def clamp_probs_(acts, eps=1e-4):
    for a in acts:
        a.clamp_(eps, 1 - eps)  # culprit


def kl_sparsity(acts, rho=0.05):
    total = 0.0
    for a in acts:
        rho_hat = a.mean(0)
        total = total + (rho * torch.log(rho / rho_hat)
                         + (1 - rho) * torch.log((1 - rho) / (1 - rho_hat))).sum()
    return total


class SparseAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.ModuleList([nn.Linear(16, 12), nn.Linear(12, 8)])
        self.dec = nn.Sequential(nn.Linear(8, 12), nn.ReLU(), nn.Linear(12, 16))

    def forward(self, x):
        acts = []
        h = x
        for layer in self.enc:
            h = torch.sigmoid(layer(h))
            acts.append(h)
        return self.dec(h), acts


def main():
    torch.manual_seed(0)
    ae = SparseAE()
    opt = torch.optim.Adam(ae.parameters(), lr=1e-3)
    x = torch.randn(20, 16)
    recon, acts = ae(x)
    clamp_probs_(acts)
    loss = F.mse_loss(recon, x) + 0.1 * kl_sparsity(acts)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
