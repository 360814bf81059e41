# intended: AGI002
# Hypergradient descent: the (log) learning rate is itself a tensor that requires grad.
# Halving it every other step like a StepLR scheduler.
import math
import torch
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    w = torch.randn(4, 1, requires_grad=True)
    log_lr = torch.tensor(math.log(0.1), requires_grad=True)
    hyper_opt = torch.optim.SGD([log_lr], lr=0.01)
    X, y = torch.randn(16, 4), torch.randn(16, 1)
    for step in range(4):
        loss = F.mse_loss(X @ w, y)
        g, = torch.autograd.grad(loss, w, create_graph=True)
        w_new = w - log_lr.exp() * g
        val_loss = F.mse_loss(X @ w_new, y)
        hyper_opt.zero_grad()
        val_loss.backward()
        hyper_opt.step()
        w = w_new.detach().requires_grad_()
        if step % 2 == 1:
            log_lr -= math.log(2.0)  # culprit
        print(step, val_loss.item(), log_lr.exp().item())


if __name__ == "__main__":
    main()
