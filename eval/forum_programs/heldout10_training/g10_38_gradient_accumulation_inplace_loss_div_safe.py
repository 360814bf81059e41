# source: gradient-accumulation recipe (HF-Trainer-like loop written by hand) with grad clipping
# loss /= accum_steps in place on the mean loss, backward every micro-batch, optimizer.step() every accum_steps
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IN_DIM, N_CLASSES = 16, 5


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(IN_DIM, 64), nn.GELU(), nn.Dropout(0.1), nn.Linear(64, 64), nn.GELU())
        self.head = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        return self.head(self.body(x))


def micro_batches(n, size):
    for _ in range(n):
        yield torch.randn(size, IN_DIM), torch.randint(0, N_CLASSES, (size,))


def train(total_micro=8, micro_size=4, accum_steps=4):
    model = Classifier()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 2))
    opt.zero_grad()
    running = 0.0
    for i, (x, y) in enumerate(micro_batches(total_micro, micro_size)):
        loss = F.cross_entropy(model(x), y)
        loss /= accum_steps
        loss.backward()
        running += loss.item()
        if (i + 1) % accum_steps == 0:
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            print(f"update {(i + 1) // accum_steps}: loss={running:.4f}")
            running = 0.0


if __name__ == "__main__":
    train()
