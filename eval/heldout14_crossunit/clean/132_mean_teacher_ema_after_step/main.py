# Source: https://github.com/CuriousAI/mean-teacher/issues/29 (CuriousAI/mean-teacher#29: "The teacher updates happen between training steps and gradients don't flow across training steps"); https://github.com/CuriousAI/mean-teacher/issues/28 (update_ema_variables)
# Unit kind: cross-file
# Look-alike of hazard/037: the same in-place EMA update from ema.py, called after the
# backward and the student's optimizer step, on a teacher whose forward ran under no_grad.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from ema import update_ema_variables
from losses import softmax_mse_loss

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
ema_model = copy.deepcopy(model)
for p in ema_model.parameters():
    p.requires_grad_(False)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for step in range(2):
    x, y = torch.randn(5, 4), torch.tensor([0, 1, 2, 0, 1])
    logits = model(x)
    with torch.no_grad():
        ema_logits = ema_model(x + 0.1 * torch.randn_like(x))
    loss = F.cross_entropy(logits, y) + softmax_mse_loss(logits, ema_logits)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    update_ema_variables(model, ema_model, alpha=0.99, global_step=step)
print("done")
