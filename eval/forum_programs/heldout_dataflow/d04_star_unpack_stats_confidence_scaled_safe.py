# A helper returns (loss, *stats); the caller turns the max probability into a percentage in place. The max
# values are a fresh tensor (max over a dim saves only the indices), not the softmax output.
import torch
import torch.nn as nn
import torch.nn.functional as F


def loss_and_stats(model, x, y):
    logits = model(x)
    probs = F.softmax(logits, dim=-1)
    loss = F.nll_loss(probs.clamp_min(1e-8).log(), y)
    conf = probs.max(dim=-1).values
    return loss, conf, probs.argmax(-1)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 3))
x, y = torch.randn(10, 5), torch.randint(0, 3, (10,))
loss, *stats = loss_and_stats(model, x, y)
conf, pred = stats
conf.mul_(100.0)
calib = (conf / 100.0 - (pred == y).float()).pow(2).mean()
(loss + 0.1 * calib).backward()
print(loss.item(), model[0].weight.grad.norm().item())
