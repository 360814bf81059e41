# intended: AGI001
# Text VAE (Bowman et al.) with word dropout on the decoder input. The encoder embeds the
# ids first; then a helper replaces dropped tokens with <unk> in place on the same id tensor.
# embedding saved its indices for backward.
import torch
import torch.nn as nn
import torch.nn.functional as F

V, UNK, PAD = 20, 1, 0


def word_dropout_(ids, p):
    drop = (torch.rand(ids.shape) < p) & (ids != PAD)
    ids[drop] = UNK  # culprit
    return ids


class TextVAE(nn.Module):
    def __init__(self, d=12, z=4):
        super().__init__()
        self.emb = nn.Embedding(V, d)
        self.enc = nn.GRU(d, d, batch_first=True)
        self.to_mu, self.to_lv = nn.Linear(d, z), nn.Linear(d, z)
        self.z2h = nn.Linear(z, d)
        self.dec = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, V)

    def forward(self, ids, p_drop=0.3):
        _, h = self.enc(self.emb(ids))
        mu, lv = self.to_mu(h[-1]), self.to_lv(h[-1])
        z = mu + torch.randn_like(mu) * (0.5 * lv).exp()
        dec_in = word_dropout_(ids, p_drop)
        y, _ = self.dec(self.emb(dec_in), torch.tanh(self.z2h(z)).unsqueeze(0))
        kl = -0.5 * (1 + lv - mu ** 2 - lv.exp()).sum(1).mean()
        return self.out(y), kl


def main():
    torch.manual_seed(0)
    model = TextVAE()
    ids = torch.randint(2, V, (4, 7))
    targets = ids.clone()
    logits, kl = model(ids)
    loss = F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1)) + kl
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
