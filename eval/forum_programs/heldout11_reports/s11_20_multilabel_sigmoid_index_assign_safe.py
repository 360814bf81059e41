# source: https://github.com/wutong16/DistributionBalancedLoss/issues/20
# Fixed multi-label loss: easy negatives are zeroed with torch.where instead of writing into the sigmoid output.
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
        pred = torch.where(easy_neg, torch.zeros_like(pred), pred)
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
