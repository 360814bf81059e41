# intended: AGI004
# VQ-VAE dead-code restart. A @no_grad helper returns a codebook row (a view of the weight),
# and the training loop overwrites that row in place with an encoder output, with grad on.
import torch
import torch.nn as nn
import torch.nn.functional as F


class VQ(nn.Module):
    def __init__(self, K, d):
        super().__init__()
        self.codebook = nn.Embedding(K, d)
        self.register_buffer("usage", torch.zeros(K))

    @torch.no_grad()
    def code(self, i):
        return self.codebook.weight[i]

    def forward(self, z):
        d = torch.cdist(z, self.codebook.weight)
        idx = d.argmin(1)
        with torch.no_grad():
            self.usage.mul_(0.9).index_add_(0, idx, torch.ones_like(idx, dtype=torch.float))
        q = self.codebook(idx)
        commit = F.mse_loss(z, q.detach())
        codebook_loss = F.mse_loss(q, z.detach())
        return z + (q - z).detach(), commit + codebook_loss


def main():
    torch.manual_seed(0)
    enc = nn.Linear(6, 3)
    dec = nn.Linear(3, 6)
    vq = VQ(8, 3)
    params = list(enc.parameters()) + list(dec.parameters()) + list(vq.parameters())
    opt = torch.optim.Adam(params, lr=1e-2)
    x = torch.randn(16, 6)
    for step in range(2):
        z = enc(x)
        zq, vq_loss = vq(z)
        loss = F.mse_loss(dec(zq), x) + vq_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        dead = (vq.usage < 0.5).nonzero().flatten().tolist()
        for j, i in enumerate(dead):
            vq.code(i).copy_(z[j].detach())  # culprit
        print(step, loss.item(), len(dead))


if __name__ == "__main__":
    main()
