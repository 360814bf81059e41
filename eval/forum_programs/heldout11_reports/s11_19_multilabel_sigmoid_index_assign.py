# source: https://github.com/wutong16/DistributionBalancedLoss/issues/20
# Multi-label loss: sigmoid probabilities are overwritten by index assignment -> output 0 of SigmoidBackward0 modified.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ResampleLoss(nn.Module):
    def __init__(self, neg_scale=2.0, clip=0.05):
        super().__init__()
        self.neg_scale = neg_scale
        self.clip = clip

    def forward(self, cls_score, label):
        pred = cls_score.sigmoid()
        easy_neg = (label == 0) & (pred < self.clip)
        pred[easy_neg] = 0.0  # culprit
        weight = torch.where(label > 0, torch.ones_like(pred), torch.full_like(pred, self.neg_scale))
        return F.binary_cross_entropy(pred.clamp(1e-6, 1 - 1e-6), label, weight=weight)


head = nn.Linear(10, 6)
criterion = ResampleLoss(clip=0.45)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
feats = torch.randn(4, 10)
labels = (torch.rand(4, 6) > 0.6).float()
loss = criterion(head(feats), labels)
opt.zero_grad()
loss.backward()
opt.step()
print("done")
