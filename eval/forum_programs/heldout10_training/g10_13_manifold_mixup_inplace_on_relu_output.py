# source: Manifold Mixup re-implementation for an MLP classifier (mix hidden states at a random layer)
# hidden state from ReLU is mixed in place with h.mul_(lam).add_(h[perm], alpha=1-lam)
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)

IN_DIM, HIDDEN, N_CLASSES = 12, 32, 4


class MixupMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(IN_DIM, HIDDEN), nn.Linear(HIDDEN, HIDDEN)])
        self.out = nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, x, mix_layer=None, lam=1.0, perm=None):
        h = x
        for i, layer in enumerate(self.layers):
            h = F.relu(layer(h))
            if i == mix_layer:
                h_perm = h[perm]
                h.mul_(lam).add_(h_perm, alpha=1 - lam)  # culprit
        return self.out(h)


def mixup_criterion(logits, y, perm, lam):
    return lam * F.cross_entropy(logits, y) + (1 - lam) * F.cross_entropy(logits, y[perm])


def train(steps=3, batch=16, alpha=2.0):
    model = MixupMLP()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    beta = torch.distributions.Beta(alpha, alpha)
    for step in range(steps):
        x = torch.randn(batch, IN_DIM)
        y = torch.randint(0, N_CLASSES, (batch,))
        lam = beta.sample().item()
        perm = torch.randperm(batch)
        layer = random.randrange(len(model.layers))
        logits = model(x, mix_layer=layer, lam=lam, perm=perm)
        loss = mixup_criterion(logits, y, perm, lam)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: layer={layer} lam={lam:.2f} loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
