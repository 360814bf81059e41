# Source: https://github.com/CuriousAI/mean-teacher/issues/28 (CuriousAI/mean-teacher#28 "About EMA": update_ema_variables does ema_param.mul_(alpha).add_(1 - alpha, param); and #29: "The teacher updates happen between training steps and gradients don't flow across training steps"); see also https://github.com/neuropoly/domainadaptation/issues/1
# Unit kind: cross-file
# Here the teacher is a deepcopy whose parameters still require grad and the
# consistency target is not detached; ema.py's EMA update runs before the backward,
# writing in place into teacher weights that the teacher's forward saved.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from ema import update_ema_variables
from losses import softmax_mse_loss

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
ema_model = copy.deepcopy(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

x, y = torch.randn(5, 4), torch.tensor([0, 1, 2, 0, 1])
logits = model(x)
ema_logits = ema_model(x + 0.1 * torch.randn_like(x))
loss = F.cross_entropy(logits, y) + softmax_mse_loss(logits, ema_logits)
update_ema_variables(model, ema_model, alpha=0.99, global_step=10)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("done")
