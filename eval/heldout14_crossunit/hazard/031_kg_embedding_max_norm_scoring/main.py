# Source: https://github.com/pytorch/pytorch/issues/26596 (pytorch/pytorch#26596 "nn.Embedding with max_norm shows unstable behavior and causes sometimes runtime error": `a = embedding.weight @ W.t()` then `b = embedding(idx) @ W.t()`; swapping the two lines avoids it); see also https://github.com/pytorch/pytorch/pull/45595 (the documentation note on max_norm's in-place weight update)
# Unit kind: cross-file
# scoring.py's full-table score saves the embedding weight; its batch score then looks
# up rows of an Embedding that model.py built with max_norm, which renormalises the
# weight in place.
import torch

from model import KGModel
from scoring import score_all, score_batch

torch.manual_seed(0)

model = KGModel(num_entities=3, dim=5, num_relations=7)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
idx = torch.tensor([1, 2])
a = score_all(model)
b = score_batch(model, idx)
loss = (a.unsqueeze(0) + b.unsqueeze(1)).sigmoid().prod()
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("done")
