# intended: AGI001
# MAML with a functional MLP. The first inner step creates the fast weights out of place,
# further inner steps update them in place (they are not leaves any more, so no leaf error...).
import torch
import torch.nn.functional as F


def forward(params, x):
    w1, b1, w2, b2 = params
    h = F.relu(F.linear(x, w1, b1))
    return F.linear(h, w2, b2)


def inner_adapt(params, x, y, lr, steps):
    loss = F.mse_loss(forward(params, x), y)
    grads = torch.autograd.grad(loss, params, create_graph=True)
    fast = [w - lr * g for w, g in zip(params, grads)]
    for _ in range(steps - 1):
        loss = F.mse_loss(forward(fast, x), y)
        grads = torch.autograd.grad(loss, fast, create_graph=True)
        for w, g in zip(fast, grads):
            w.sub_(lr * g)  # culprit
    return fast


def main():
    torch.manual_seed(0)
    params = [torch.randn(16, 1) * 0.5, torch.zeros(16), torch.randn(1, 16) * 0.5, torch.zeros(1)]
    for p in params:
        p.requires_grad_()
    meta_opt = torch.optim.Adam(params, lr=1e-3)
    for it in range(2):
        meta_opt.zero_grad()
        meta_loss = 0.0
        for task in range(3):
            amp = 1.0 + task
            xs, xq = torch.rand(5, 1) * 4 - 2, torch.rand(5, 1) * 4 - 2
            fast = inner_adapt(params, xs, amp * torch.sin(xs), lr=0.01, steps=2)
            meta_loss = meta_loss + F.mse_loss(forward(fast, xq), amp * torch.sin(xq))
        meta_loss.backward()
        meta_opt.step()
        print(it, meta_loss.item())


if __name__ == "__main__":
    main()
