# source: training-loop metric helpers (accuracy + top1/top2 confidence margin) computed on the same probs that feed the loss
# Classifier whose batch-metrics helper knocks out the top class with scatter_ on the softmax probs to read off the runner-up.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ProbClassifier(nn.Module):
    def __init__(self, in_dim=12, n_classes=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x).softmax(dim=-1)


def batch_metrics(probs, targets):
    top1, pred = probs.max(dim=-1)
    acc = (pred == targets).float().mean()
    probs.scatter_(1, pred.unsqueeze(1), 0.0)  # culprit
    runner_up = probs.max(dim=-1).values
    return {"acc": acc.item(), "margin": (top1 - runner_up).mean().item()}


model = ProbClassifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
history = {"acc": 0.0, "margin": 0.0}
for step in range(3):
    x, y = torch.randn(20, 12), torch.randint(0, 6, (20,))
    probs = model(x)
    loss = F.nll_loss(torch.log(probs + 1e-8), y)
    m = batch_metrics(probs, y)
    for k in history:
        history[k] += m[k]
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item(), m)
