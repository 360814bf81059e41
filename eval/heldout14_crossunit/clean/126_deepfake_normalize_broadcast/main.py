# Source: https://github.com/paarthneekhara/AdversarialDeepFakes/issues/23 (paarthneekhara/AdversarialDeepFakes#23: dataset/transform.py's per-channel `t.sub_(m).div_(s)`)
# Unit kind: cross-file
# Look-alike of hazard/030: the dataset package's Normalize broadcasts mean and std out
# of place instead of writing into each channel view.
import torch
import torch.nn as nn

from attack_algos import robust_fgsm

torch.manual_seed(0)

model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Flatten(), nn.Linear(4 * 4 * 4, 2))
adv = robust_fgsm(torch.rand(1, 3, 8, 8), model)
print(adv.shape)
