# Source: wutong16/DistributionBalancedLoss#20 ("output 0 of SigmoidBackward0, is at version 1;
# expected version 0" at loss.backward()).
# Unit kind: function -- the loss helper flips the sigmoid probabilities it is given in place.
import torch
import torch.nn as nn

torch.manual_seed(0)


def probs_for_target(pred, target):
    pred[target == 0] = 1 - pred[target == 0]  # culprit
    return pred


def focal_loss(logits, target, gamma=2.0):
    pred = logits.sigmoid()
    pt = probs_for_target(pred, target)
    return (-(1 - pt) ** gamma * torch.log(pt.clamp(min=1e-6))).mean()


fc = nn.Linear(8, 5)
x = torch.randn(4, 8)
target = (torch.rand(4, 5) > 0.5).long()
loss = focal_loss(fc(x), target)
loss.backward()
print("done")
