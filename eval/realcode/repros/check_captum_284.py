# captum.influence.SimilarityInfluence.influence (similarity_influence.py:281-284):
# `values, indices = torch.topk(similarity, ...)` then `indices += j * batch_size`.
# topk does save `indices` for backward, so the write would break a backward through `values` -- but
# `similarity` never requires grad: both activation sets come from LayerActivation.attribute, whose
# body runs under `with torch.no_grad()` (layer_activation.py:119; the source set is saved to and
# loaded from `activation_dir`), and influence() returns indices/scores, not a loss.
# This runs the installed captum 0.9.0 (pip install --no-deps captum==0.9.0; it also imports tqdm and
# matplotlib) on inputs that require grad, with grad on, several source batches (so line 284 adds a
# non-zero offset), and records what reaches torch.topk. Exits 0 when the claim holds.
import sys
import tempfile

import torch
from torch.utils.data import TensorDataset
from captum.influence import SimilarityInfluence

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.ReLU(), torch.nn.Linear(6, 2))
src = TensorDataset(torch.randn(8, 4), torch.zeros(8))
seen = []
real_topk = torch.topk
def recording_topk(input, *args, **kwargs):
    seen.append(input.requires_grad)
    return real_topk(input, *args, **kwargs)
torch.topk = recording_topk
inputs = torch.randn(3, 4, requires_grad=True)
with tempfile.TemporaryDirectory() as d:
    sim = SimilarityInfluence(model, ["0", "2"], src, d, batch_size=4)
    result = sim.influence(inputs, top_k=2)
torch.topk = real_topk
assert torch.is_grad_enabled() and inputs.requires_grad
print("topk calls:", len(seen), "similarity requires grad in any:", any(seen))
for layer, (idx, val) in ((k, v) for k, v in result.items() if not k.startswith("zero_acts")):
    print(layer, "indices", idx.tolist(), "values require grad:", val.requires_grad)
ok = len(seen) >= 2 and not any(seen) and not any(
    v[1].requires_grad for k, v in result.items() if not k.startswith("zero_acts"))
sys.exit(0 if ok else 1)
