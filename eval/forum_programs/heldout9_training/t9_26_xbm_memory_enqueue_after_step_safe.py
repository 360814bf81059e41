# source: cross-batch memory (XBM, Wang et al. 2020) contrastive loss; enqueue performed by the training loop after the update
# Metric-learning loss against a memory bank of embeddings; the training loop writes the batch into the bank after opt.step().
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class XBMContrastiveLoss(nn.Module):
    def __init__(self, size=64, dim=16, margin=0.5):
        super().__init__()
        self.register_buffer("feats", torch.zeros(size, dim))
        self.register_buffer("labels", torch.full((size,), -1, dtype=torch.long))
        self.size, self.margin, self.ptr = size, margin, 0

    @torch.no_grad()
    def enqueue(self, emb, labels):
        b = emb.size(0)
        self.feats[self.ptr:self.ptr + b].copy_(emb)
        self.labels[self.ptr:self.ptr + b] = labels
        self.ptr = (self.ptr + b) % self.size

    def forward(self, emb, labels):
        sim = emb @ self.feats.t()
        valid = (self.labels >= 0)[None, :]
        pos = (labels[:, None] == self.labels[None, :]) & valid
        neg = (labels[:, None] != self.labels[None, :]) & valid
        pos_loss = ((1 - sim) * pos).sum() / pos.sum().clamp(min=1)
        neg_loss = (F.relu(sim - self.margin) * neg).sum() / neg.sum().clamp(min=1)
        return pos_loss + neg_loss


embedder = nn.Sequential(nn.Linear(24, 48), nn.ReLU(), nn.Linear(48, 16))
criterion = XBMContrastiveLoss()
opt = torch.optim.Adam(embedder.parameters(), lr=1e-3)
for step in range(4):
    x, y = torch.randn(16, 24), torch.randint(0, 4, (16,))
    emb = F.normalize(embedder(x), dim=-1)
    loss = criterion(emb, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    criterion.enqueue(emb, y)
    print(step, loss.item())
