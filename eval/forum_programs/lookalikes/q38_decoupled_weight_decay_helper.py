# intended: AGI002
# Decoupled weight decay applied by hand before a plain SGD step. The helper shrinks the
# matrices in place but is called outside torch.no_grad(), on leaves that require grad.
import torch
import torch.nn as nn


def decay_weights(params, lr, wd):
    for p in params:
        if p.ndim > 1:
            p.mul_(1 - lr * wd)  # culprit


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(16, 5), torch.randn(16, 1)
    for step in range(2):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        decay_weights(model.parameters(), lr=0.1, wd=1e-2)
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
