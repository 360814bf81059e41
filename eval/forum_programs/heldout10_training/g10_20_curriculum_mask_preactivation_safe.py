# source: curriculum-learning experiment with feature dropout schedule (masking applied to inputs and pre-activations)
# input features masked in place on the data, hidden pre-activations (Linear output) zeroed in place before ReLU
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IN_DIM, HIDDEN, N_CLASSES = 10, 32, 3


class CurriculumMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(IN_DIM, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, HIDDEN)
        self.head = nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, x, n_active):
        pre = self.fc1(x)
        pre[:, n_active:] = 0.0
        h = F.relu(pre)
        h = F.relu(self.fc2(h))
        return self.head(h)


def make_batch(batch, difficulty):
    x = torch.randn(batch, IN_DIM)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
    drop = torch.rand(batch, IN_DIM) < difficulty
    x[drop] = 0.0
    return x, y


def train(epochs=3, batches=2, batch=16):
    model = CurriculumMLP()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(epochs):
        n_active = HIDDEN // 4 * (epoch + 1)
        difficulty = 0.1 * epoch
        for b in range(batches):
            x, y = make_batch(batch, difficulty)
            loss = F.cross_entropy(model(x, n_active), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: active={n_active} loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
