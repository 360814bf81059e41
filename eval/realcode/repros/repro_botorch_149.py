# botorch.utils.multi_objective.box_decompositions.utils.update_local_upper_bounds_incremental /
# compute_local_upper_bounds: Z_ku = A_Z_filtered[:, mask] saves the bool `mask` as index;
# mask[j] = 1 (line 149) / mask[j] = 0 (line 133, next j) bump its version.
# Setup mirrors FastPartitioning._partition_space (3 objectives) with pareto Y that requires grad.
import torch
from torch import Tensor
from extract import load
ns = dict(torch=torch, Tensor=Tensor)
load('botorch-0.18.1/botorch/utils/multi_objective/box_decompositions/utils.py',
     {"compute_local_upper_bounds", "update_local_upper_bounds_incremental"}, ns)
torch.manual_seed(0)
m = 3
neg_ref = torch.zeros(m, dtype=torch.double)                 # minimisation form, ref at 0
Y = torch.rand(4, m, dtype=torch.double, requires_grad=True)  # e.g. posterior mean at train X
neg_pareto_Y = -Y
U = neg_ref.unsqueeze(-2).clone()
Z = torch.zeros(1, m, m, dtype=torch.double)
for j in range(m):
    Z[0, j] = float("-inf")
    Z[0, j, j] = U[0, j]
U, Z = ns["update_local_upper_bounds_incremental"](new_pareto_Y=neg_pareto_Y, U=U, Z=Z)
loss = torch.where(torch.isfinite(Z), Z, torch.zeros_like(Z)).sum()
loss.backward()
print("no error")
