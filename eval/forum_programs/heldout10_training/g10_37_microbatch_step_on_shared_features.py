# source: memory-saving "micro-batch" training loop from a forum thread (encoder run once, head run per chunk)
# encoder features computed once; per chunk: head loss, backward(retain_graph=True), optimizer.step() over all params
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IN_DIM, FEAT, N_CLASSES = 16, 32, 5


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(IN_DIM, FEAT), nn.GELU(), nn.Linear(FEAT, FEAT), nn.GELU())

    def forward(self, x):
        return self.net(x)


def train(epochs=2, batch=32, chunk=8):
    encoder = Encoder()
    head = nn.Linear(FEAT, N_CLASSES)
    optimizer = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=1e-3)
    for epoch in range(epochs):
        x = torch.randn(batch, IN_DIM)
        y = torch.randint(0, N_CLASSES, (batch,))
        feats = encoder(x)
        total = 0.0
        for start in range(0, batch, chunk):
            logits = head(feats[start:start + chunk])
            loss = F.cross_entropy(logits, y[start:start + chunk])
            optimizer.zero_grad()
            loss.backward(retain_graph=True)
            optimizer.step()  # culprit
            total += loss.item()
        print(f"epoch {epoch}: loss={total / (batch // chunk):.4f}")


if __name__ == "__main__":
    train()
