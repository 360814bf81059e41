# source: PaLM-style auxiliary z-loss (1e-4 * logsumexp^2) added to a hand-written cross-entropy in a small LM training loop
# Manual CE = logsumexp - target logit, reusing the logsumexp tensor with an in-place sub_ after the z-loss has used it.
import torch
import torch.nn as nn

torch.manual_seed(0)


class TinyLM(nn.Module):
    def __init__(self, vocab=30, dim=24):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.mix = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.LayerNorm(dim))
        self.out = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        return self.out(self.mix(self.tok(ids)))


def lm_loss(logits, targets, z_coef=1e-4):
    lse = torch.logsumexp(logits, dim=-1)
    z_loss = z_coef * lse.pow(2).mean()
    target_logit = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    nll = lse.sub_(target_logit)  # culprit
    return nll.mean() + z_loss, z_loss.detach()


model = TinyLM()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1)
for step in range(3):
    ids = torch.randint(0, 30, (4, 12))
    logits = model(ids[:, :-1])
    loss, z = lm_loss(logits, ids[:, 1:])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item(), z.item())
