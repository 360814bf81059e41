# source: lucidrains/vector-quantize-pytorch & VQ-VAE-2 style EMA codebook (EuclideanCodebook with dead-code expiry)
# Convolutional VQ-VAE with an EMA-updated codebook and straight-through gradients, trained a few steps.
import torch
import torch.nn as nn
import torch.nn.functional as F


class EMAVectorQuantizer(nn.Module):
    def __init__(self, dim, codebook_size, decay=0.9, eps=1e-5, threshold_ema_dead_code=0.5, commitment=0.25):
        super().__init__()
        self.decay, self.eps, self.commitment = decay, eps, commitment
        self.threshold_ema_dead_code = threshold_ema_dead_code
        embed = torch.randn(codebook_size, dim)
        self.register_buffer("embed", embed)
        self.register_buffer("cluster_size", torch.ones(codebook_size))
        self.register_buffer("embed_avg", embed.clone())

    @torch.no_grad()
    def expire_codes_(self, flatten):
        expired = self.cluster_size < self.threshold_ema_dead_code
        if not expired.any():
            return
        idx = torch.randint(0, flatten.size(0), (int(expired.sum()),))
        self.embed[expired] = flatten[idx].detach()
        self.embed_avg[expired] = flatten[idx].detach()
        self.cluster_size[expired] = 1.0

    def forward(self, x):
        b, c, h, w = x.shape
        flatten = x.permute(0, 2, 3, 1).reshape(-1, c)
        dist = -(flatten.pow(2).sum(1, keepdim=True) - 2 * flatten @ self.embed.t() + self.embed.pow(2).sum(1)[None])
        embed_ind = dist.max(dim=-1).indices
        quantize = F.embedding(embed_ind, self.embed)
        if self.training:
            with torch.no_grad():
                onehot = F.one_hot(embed_ind, self.embed.size(0)).type(flatten.dtype)
                self.cluster_size.mul_(self.decay).add_(onehot.sum(0), alpha=1 - self.decay)
                embed_sum = onehot.t() @ flatten
                self.embed_avg.mul_(self.decay).add_(embed_sum, alpha=1 - self.decay)
                n = self.cluster_size.sum()
                cluster_size = (self.cluster_size + self.eps) / (n + self.embed.size(0) * self.eps) * n
                self.embed.copy_(self.embed_avg / cluster_size.unsqueeze(1))
            self.expire_codes_(flatten)
        commit_loss = F.mse_loss(quantize.detach(), flatten) * self.commitment
        quantize = flatten + (quantize - flatten).detach()
        return quantize.view(b, h, w, c).permute(0, 3, 1, 2), embed_ind.view(b, h, w), commit_loss


class ResBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.block = nn.Sequential(nn.ReLU(), nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(inplace=True), nn.Conv2d(ch, ch, 1))

    def forward(self, x):
        return x + self.block(x)


class VQVAE(nn.Module):
    def __init__(self, ch=32, embed_dim=16, codebook_size=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, ch, 4, 2, 1), nn.ReLU(inplace=True), nn.Conv2d(ch, ch, 4, 2, 1),
                                     ResBlock(ch), nn.Conv2d(ch, embed_dim, 1))
        self.vq = EMAVectorQuantizer(embed_dim, codebook_size)
        self.decoder = nn.Sequential(nn.Conv2d(embed_dim, ch, 3, padding=1), ResBlock(ch), nn.ReLU(inplace=True),
                                     nn.ConvTranspose2d(ch, ch, 4, 2, 1), nn.ReLU(inplace=True),
                                     nn.ConvTranspose2d(ch, 3, 4, 2, 1))

    def forward(self, x):
        quant, ind, commit_loss = self.vq(self.encoder(x))
        return self.decoder(quant), commit_loss


torch.manual_seed(0)
model = VQVAE()
opt = torch.optim.Adam(model.parameters(), lr=3e-4)
for step in range(3):
    imgs = torch.rand(4, 3, 16, 16) * 2 - 1
    recon, commit_loss = model(imgs)
    loss = F.mse_loss(recon, imgs) + commit_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4), int(model.vq.cluster_size.gt(0.5).sum()))
