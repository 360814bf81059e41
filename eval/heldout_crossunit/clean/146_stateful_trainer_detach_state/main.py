# Source: norse/norse#163 (state passed between batches); the trainer detaches it after each step.
# Clean look-alike of hazard/071.
# Unit kind: file.
import torch
import torch.nn as nn

from layers import LeakyCell
from trainer import StatefulTrainer

torch.manual_seed(0)
tr = StatefulTrainer(LeakyCell(3, 5), nn.Linear(5, 1))
for _ in range(3):
    tr.step(torch.randn(2, 3), torch.randn(2, 1))
print("done")
