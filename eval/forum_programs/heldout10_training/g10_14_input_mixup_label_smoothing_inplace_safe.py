# source: mixup + label smoothing training recipe (timm-style Mixup class, simplified)
# inputs and soft targets mixed / smoothed in place on data tensors that do not require grad
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IN_DIM, N_CLASSES = 12, 4


class Mixup:
    def __init__(self, alpha=0.4, smoothing=0.1, num_classes=N_CLASSES):
        self.beta = torch.distributions.Beta(alpha, alpha)
        self.smoothing = smoothing
        self.num_classes = num_classes

    def smooth_one_hot(self, y):
        off = self.smoothing / self.num_classes
        targets = torch.full((y.shape[0], self.num_classes), off)
        targets.scatter_(1, y.unsqueeze(1), 1.0 - self.smoothing + off)
        return targets

    def __call__(self, x, y):
        lam = self.beta.sample().item()
        perm = torch.randperm(x.shape[0])
        targets = self.smooth_one_hot(y)
        x_perm, t_perm = x[perm], targets[perm]
        x.mul_(lam).add_(x_perm, alpha=1 - lam)
        targets.mul_(lam).add_(t_perm, alpha=1 - lam)
        return x, targets


def soft_target_cross_entropy(logits, targets):
    return torch.sum(-targets * F.log_softmax(logits, dim=-1), dim=-1).mean()


def train(steps=3, batch=16):
    model = nn.Sequential(nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
    mixup = Mixup()
    for step in range(steps):
        x = torch.randn(batch, IN_DIM)
        y = torch.randint(0, N_CLASSES, (batch,))
        x, targets = mixup(x, y)
        loss = soft_target_cross_entropy(model(x), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
