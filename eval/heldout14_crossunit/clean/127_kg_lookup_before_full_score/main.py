# Source: https://github.com/pytorch/pytorch/issues/26596 (pytorch/pytorch#26596: "The error can be avoided by ... swapping Line a and Line b"); https://github.com/pytorch/pytorch/pull/45595 (the documented max_norm note)
# Unit kind: cross-file
# Look-alike of hazard/031: the same max_norm Embedding from model.py, but main.py runs
# scoring.py's batch lookup (which renormalises the weight in place) before the
# full-table score saves the weight.
import torch

from model import KGModel
from scoring import score_all, score_batch

torch.manual_seed(0)

model = KGModel(num_entities=3, dim=5, num_relations=7)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
idx = torch.tensor([1, 2])
b = score_batch(model, idx)
a = score_all(model)
loss = (a.unsqueeze(0) + b.unsqueeze(1)).sigmoid().prod()
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("done")
