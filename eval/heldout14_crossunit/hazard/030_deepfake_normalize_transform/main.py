# Source: https://github.com/paarthneekhara/AdversarialDeepFakes/issues/23 (paarthneekhara/AdversarialDeepFakes#23: attack_algos.robust_fgsm -> predict_with_model -> dataset/transform.py `t.sub_(m).div_(s)` raises "Output 0 of UnbindBackward is a view and is being modified inplace ... returns multiple views")
# Unit kind: cross-file
# The attack in attack_algos.py makes the image require grad and sends it through the
# dataset package's Normalize transform, which normalises each channel (an unbind view)
# in place.
import torch
import torch.nn as nn

from attack_algos import robust_fgsm

torch.manual_seed(0)

model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Flatten(), nn.Linear(4 * 4 * 4, 2))
adv = robust_fgsm(torch.rand(1, 3, 8, 8), model)
print(adv.shape)
