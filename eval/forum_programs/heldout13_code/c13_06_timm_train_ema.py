# source: timm train.py (Mixup, label-smoothing targets, gradient accumulation, ModelEmaV2, clip_grad)
# Trains a small CNN with mixup, gradient accumulation, gradient clipping and an EMA copy of the weights.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


def one_hot(x, num_classes, on_value=1.0, off_value=0.0):
    x = x.long().view(-1, 1)
    return torch.full((x.size()[0], num_classes), off_value).scatter_(1, x, on_value)


def mixup_target(target, num_classes, lam=1.0, smoothing=0.1):
    off_value = smoothing / num_classes
    on_value = 1.0 - smoothing + off_value
    y1 = one_hot(target, num_classes, on_value, off_value)
    y2 = one_hot(target.flip(0), num_classes, on_value, off_value)
    return y1 * lam + y2 * (1.0 - lam)


class Mixup:
    def __init__(self, alpha=0.8, num_classes=10):
        self.alpha, self.num_classes = alpha, num_classes

    def __call__(self, x, target):
        lam = float(torch.distributions.Beta(self.alpha, self.alpha).sample())
        x_flipped = x.flip(0).mul_(1.0 - lam)
        x.mul_(lam).add_(x_flipped)
        return x, mixup_target(target, self.num_classes, lam)


class ModelEmaV2(nn.Module):
    def __init__(self, model, decay=0.99):
        super().__init__()
        self.module = copy.deepcopy(model).eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
            if ema_v.is_floating_point():
                ema_v.lerp_(model_v, 1.0 - self.decay)
            else:
                ema_v.copy_(model_v)


def make_model(act_layer=nn.ReLU, num_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), act_layer(inplace=True),
        nn.Conv2d(16, 32, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(32), act_layer(inplace=True),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1), nn.Linear(32, num_classes),
    )


def soft_target_cross_entropy(x, target):
    return torch.sum(-target * F.log_softmax(x, dim=-1), dim=-1).mean()


def train_one_epoch(model, ema, optimizer, mixup, steps=4, accum=2, clip=1.0):
    model.train()
    for step in range(steps):
        inp, target = torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))
        inp, target = mixup(inp, target)
        loss = soft_target_cross_entropy(model(inp), target) / accum
        loss.backward()
        if (step + 1) % accum == 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            ema.update(model)
        print(step, round(loss.item() * accum, 4))


torch.manual_seed(0)
model = make_model()
ema = ModelEmaV2(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=3)
for epoch in range(2):
    train_one_epoch(model, ema, optimizer, Mixup())
    scheduler.step()
with torch.no_grad():
    print("ema logits", ema.module(torch.randn(2, 3, 16, 16)).shape)
