# source: attention-based multiple-instance learning (ABMIL-style pooling) for bag classification
# helper returns torch.exp(scores - max); caller normalises the returned weights in place with w /= w.sum()
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

INST_DIM, HIDDEN = 12, 16


def unnormalised_attention(scores):
    return torch.exp(scores - scores.max())


class AttentionMIL(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(INST_DIM, HIDDEN), nn.ReLU())
        self.attn = nn.Sequential(nn.Linear(HIDDEN, 8), nn.Tanh(), nn.Linear(8, 1))
        self.cls = nn.Linear(HIDDEN, 1)

    def forward(self, bag):
        h = self.embed(bag)
        w = unnormalised_attention(self.attn(h).squeeze(-1))
        w /= w.sum()  # culprit
        pooled = (w.unsqueeze(-1) * h).sum(dim=0)
        return self.cls(pooled).squeeze(-1), w


def make_bag():
    n = int(torch.randint(4, 10, (1,)))
    bag = torch.randn(n, INST_DIM)
    label = float(bag[:, 0].max() > 1.5)
    return bag, torch.tensor(label)


def train(steps=3):
    model = AttentionMIL()
    opt = torch.optim.Adam(model.parameters(), lr=5e-4, weight_decay=1e-4)
    for step in range(steps):
        bag, label = make_bag()
        logit, w = model(bag)
        loss = F.binary_cross_entropy_with_logits(logit, label)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f} max_w={w.max().item():.3f}")


if __name__ == "__main__":
    train()
