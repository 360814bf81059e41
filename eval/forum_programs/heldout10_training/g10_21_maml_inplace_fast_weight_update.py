# source: MAML for sine-wave regression, written from the paper with a functional forward
# fast weights cloned from the meta-params and updated in place (w.sub_(lr * g)) with create_graph=True grads
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SineNet(nn.Module):
    def __init__(self, hidden=40):
        super().__init__()
        self.l1 = nn.Linear(1, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.l3 = nn.Linear(hidden, 1)

    def forward(self, x, params=None):
        if params is None:
            params = list(self.parameters())
        w1, b1, w2, b2, w3, b3 = params
        h = F.relu(F.linear(x, w1, b1))
        h = F.relu(F.linear(h, w2, b2))
        return F.linear(h, w3, b3)


def sample_task(k=10):
    amp = torch.empty(1).uniform_(0.1, 5.0)
    phase = torch.empty(1).uniform_(0, math.pi)
    xs = torch.empty(2 * k, 1).uniform_(-5, 5)
    ys = amp * torch.sin(xs + phase)
    return xs[:k], ys[:k], xs[k:], ys[k:]


def inner_adapt(model, xs, ys, inner_lr, steps):
    fast = [p.clone() for p in model.parameters()]
    for _ in range(steps):
        loss = F.mse_loss(model(xs, fast), ys)
        grads = torch.autograd.grad(loss, fast, create_graph=True)
        for w, g in zip(fast, grads):
            w.sub_(inner_lr * g)  # culprit
    return fast


def train(meta_iters=2, tasks_per_batch=3, inner_lr=0.01, inner_steps=1):
    model = SineNet()
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(meta_iters):
        meta_opt.zero_grad()
        meta_loss = 0.0
        for _ in range(tasks_per_batch):
            xs, ys, xq, yq = sample_task()
            fast = inner_adapt(model, xs, ys, inner_lr, inner_steps)
            meta_loss = meta_loss + F.mse_loss(model(xq, fast), yq)
        meta_loss = meta_loss / tasks_per_batch
        meta_loss.backward()
        meta_opt.step()
        print(f"meta-iter {it}: loss={meta_loss.item():.4f}")


if __name__ == "__main__":
    train()
