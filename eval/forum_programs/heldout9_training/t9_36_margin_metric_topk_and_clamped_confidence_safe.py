# source: training-loop metric helpers (accuracy, top1/top2 margin, confidence for ECE bins) computed on the probs that feed the loss
# Classifier whose batch-metrics helper uses topk for the margin and clamps the max-prob confidence values in place for binning.
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


def batch_metrics(probs, targets, n_bins=5):
    top2 = probs.topk(2, dim=-1)
    acc = (top2.indices[:, 0] == targets).float().mean()
    margin = (top2.values[:, 0] - top2.values[:, 1]).mean()
    conf = probs.max(dim=-1).values
    conf.clamp_(max=1.0 - 1e-6)
    bins = (conf * n_bins).long()
    occupancy = torch.bincount(bins, minlength=n_bins)
    return {"acc": acc.item(), "margin": margin.item(), "bins": occupancy.tolist()}


model = ProbClassifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    x, y = torch.randn(20, 12), torch.randint(0, 6, (20,))
    probs = model(x)
    loss = F.nll_loss(torch.log(probs + 1e-8), y)
    m = batch_metrics(probs, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item(), m)
