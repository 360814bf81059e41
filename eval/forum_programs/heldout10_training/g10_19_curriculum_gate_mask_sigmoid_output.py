# source: curriculum-learning experiment with a gated MLP (features unlocked stage by stage)
# sigmoid gate activations for not-yet-unlocked features are zeroed in place: gate[:, k:] = 0.0
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IN_DIM, HIDDEN, N_CLASSES = 10, 32, 3


class GatedMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(IN_DIM, HIDDEN)
        self.gate = nn.Linear(IN_DIM, HIDDEN)
        self.head = nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, x, n_active):
        h = F.relu(self.fc(x))
        gate = torch.sigmoid(self.gate(x))
        gate[:, n_active:] = 0.0  # culprit
        return self.head(h * gate)


def curriculum(epoch, total_epochs):
    frac = min(1.0, 0.25 + 0.75 * epoch / max(1, total_epochs - 1))
    return int(frac * HIDDEN)


def train(epochs=3, batches=2, batch=16):
    model = GatedMLP()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(epochs):
        n_active = curriculum(epoch, epochs)
        for b in range(batches):
            x = torch.randn(batch, IN_DIM)
            y = torch.randint(0, N_CLASSES, (batch,))
            loss = F.cross_entropy(model(x, n_active), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: active={n_active} loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
