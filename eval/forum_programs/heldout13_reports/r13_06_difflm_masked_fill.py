# source: https://github.com/thorinf/simple-diffusion-lm/issues/2 ("Runtime error")
# A continuous diffusion language model: embed tokens, noise part of the sequence, predict the tokens back.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, DIM, SEQ = 100, 32, 12


class DiffusionLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, DIM)
        self.time_mlp = nn.Sequential(nn.Linear(1, DIM), nn.SiLU(), nn.Linear(DIM, DIM))
        layer = nn.TransformerEncoderLayer(DIM, nhead=4, dim_feedforward=64, batch_first=True, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.out = nn.Linear(DIM, VOCAB)

    def forward(self, x_t, t):
        h = x_t + self.time_mlp(t[:, None])[:, None, :]
        return self.out(self.encoder(h))


def cosine_schedule(t):
    return torch.cos(t * math.pi / 2) ** 2


def compute_loss(model, input_ids):
    batch, length = input_ids.shape
    x_0 = model.embedding(input_ids)

    # only a random span of each sequence is diffused; the rest stays as conditioning
    diff_mask = torch.rand(batch, length) < 0.5
    t = torch.rand(batch)
    alpha = cosine_schedule(t)[:, None, None]
    noise = torch.randn_like(x_0)
    x_t = torch.where(diff_mask[..., None], alpha.sqrt() * x_0 + (1 - alpha).sqrt() * noise, x_0)

    logits = model(x_t, t)
    input_ids.masked_fill_(torch.logical_not(diff_mask), -100)  # culprit
    ce = F.cross_entropy(logits.reshape(-1, VOCAB), input_ids.reshape(-1), ignore_index=-100)
    # small embedding-norm regulariser keeps x_0 from collapsing
    reg = x_0.pow(2).mean()
    return ce + 0.01 * reg


model = DiffusionLM()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

for step in range(3):
    input_ids = torch.randint(0, VOCAB, (4, SEQ))
    loss = compute_loss(model, input_ids)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
