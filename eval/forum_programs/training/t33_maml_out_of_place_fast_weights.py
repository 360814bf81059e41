# intended: safe
# MAML: fast weights always built out of place; meta-parameters updated by hand in place
# under no_grad after meta-backward.
import torch
import torch.nn.functional as F


def forward(params, x):
    w1, b1, w2, b2 = params
    h = F.relu(F.linear(x, w1, b1))
    return F.linear(h, w2, b2)


def inner_adapt(params, x, y, lr, steps):
    fast = list(params)
    for _ in range(steps):
        loss = F.mse_loss(forward(fast, x), y)
        grads = torch.autograd.grad(loss, fast, create_graph=True)
        fast = [w - lr * g for w, g in zip(fast, grads)]
    return fast


def main():
    torch.manual_seed(0)
    params = [torch.randn(16, 1) * 0.5, torch.zeros(16), torch.randn(1, 16) * 0.5, torch.zeros(1)]
    for p in params:
        p.requires_grad_()
    meta_lr = 1e-3
    for it in range(2):
        meta_loss = 0.0
        for task in range(3):
            amp = 1.0 + task
            xs, xq = torch.rand(5, 1) * 4 - 2, torch.rand(5, 1) * 4 - 2
            fast = inner_adapt(params, xs, amp * torch.sin(xs), lr=0.01, steps=2)
            meta_loss = meta_loss + F.mse_loss(forward(fast, xq), amp * torch.sin(xq))
        meta_loss.backward()
        with torch.no_grad():
            for p in params:
                p -= meta_lr * p.grad
                p.grad.zero_()
        print(it, meta_loss.item())


if __name__ == "__main__":
    main()
