# intended: safe
# Static loss scaling by hand, gradient unscale/clip in place on .grad, linear warmup
# of the learning rate through param_groups, and a max-norm clip.
import torch
import torch.nn as nn
import torch.nn.functional as F


def warmup_lr(optimizer, step, base_lr, warmup=3):
    for group in optimizer.param_groups:
        group["lr"] = base_lr * min(1.0, (step + 1) / warmup)


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 32), nn.GELU(), nn.LayerNorm(32), nn.Linear(32, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.0, momentum=0.9, nesterov=True)
    x, y = torch.randn(16, 6), torch.randint(0, 2, (16,))
    scale = 1024.0
    for step in range(4):
        warmup_lr(opt, step, 0.1)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=False)
        (loss * scale).backward()
        for p in model.parameters():
            p.grad.div_(scale)
            p.grad.clamp_(-1.0, 1.0)
        total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
        opt.step()
        for group in opt.param_groups:
            group["lr"] *= 0.5
        print(f"step {step}: loss {loss.item():.4f} |g| {total.item():.3f}")


if __name__ == "__main__":
    main()
