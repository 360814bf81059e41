# Source: https://github.com/MultimediaTechLab/YOLO/pull/83 (MultimediaTechLab/YOLO PR #83 "Fixes memory leak": the per-loss totals become `defaultdict(float)` updated with `total_loss[loss_name] += loss_val.item() * batch_size`); see also https://github.com/BatsResearch/labelmodels/issues/4
# Unit kind: cross-file
# Look-alike of hazard/016 and hazard/029: `+=` accumulators in metrics.py's dataclass
# run between the forward and the backward, but they update a dict of floats, a
# Python list and an integer label-count tensor; the class weights the loss saved
# are a new float tensor made from those counts.
import torch
import torch.nn as nn

from metrics import RunningStats
from trainer import train_step

torch.manual_seed(0)

model = nn.Linear(4, 3)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
stats = RunningStats(num_classes=3)
for _ in range(2):
    train_step(model, optimizer, stats, torch.randn(6, 4), torch.tensor([0, 1, 2, 2, 1, 0]))
print(stats.totals, stats.class_counts.tolist(), len(stats.history))
