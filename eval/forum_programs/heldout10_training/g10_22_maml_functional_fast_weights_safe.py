# source: MAML for sine-wave regression with a functional forward (learn2learn-free implementation)
# out-of-place fast weights (w - lr * g); meta-gradients averaged and clipped in place on p.grad before meta_opt.step()
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
    fast = list(model.parameters())
    for _ in range(steps):
        loss = F.mse_loss(model(xs, fast), ys)
        grads = torch.autograd.grad(loss, fast, create_graph=True)
        fast = [w - inner_lr * g for w, g in zip(fast, grads)]
    return fast


def train(meta_iters=2, tasks_per_batch=3, inner_lr=0.01, inner_steps=2):
    model = SineNet()
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(meta_iters):
        meta_opt.zero_grad()
        total = 0.0
        for _ in range(tasks_per_batch):
            xs, ys, xq, yq = sample_task()
            fast = inner_adapt(model, xs, ys, inner_lr, inner_steps)
            q_loss = F.mse_loss(model(xq, fast), yq)
            q_loss.backward()
            total += q_loss.item()
        for p in model.parameters():
            p.grad.div_(tasks_per_batch)
            p.grad.clamp_(-10.0, 10.0)
        meta_opt.step()
        print(f"meta-iter {it}: loss={total / tasks_per_batch:.4f}")


if __name__ == "__main__":
    train()
