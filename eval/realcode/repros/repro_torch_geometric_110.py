# torch_geometric.utils.dense_to_sparse (torch_geometric/utils/sparse.py:95-110), a batched (3-D) dense
# adjacency: `edge_attr = flatten_adj[edge_index[0], edge_index[1]]` saves the index tensors for backward,
# then `edge_index[1] += offset[edge_index[0]]` bumps their version counter (integer tensors are saved and
# checked like any other), so a backward through `edge_attr` raises. A learned adjacency (dense pooling,
# attention-built graphs) requires grad. The function is loaded verbatim (torch_geometric's package
# imports xxhash and others, not installed here). Exits 0 when torch raises the expected error.
import sys

import torch
from torch import Tensor
from typing import Optional, Tuple
from extract import load

ns = dict(torch=torch, Tensor=Tensor, Optional=Optional, Tuple=Tuple)
load("torch-geometric-2.8.1/torch_geometric/utils/sparse.py", {"dense_to_sparse"}, ns)
adj = torch.rand(2, 3, 3, requires_grad=True)
edge_index, edge_attr = ns["dense_to_sparse"](adj)
try:
    edge_attr.sum().backward()
except RuntimeError as error:
    print("raised:", error)
    sys.exit(0 if "modified by an inplace operation" in str(error) else 1)
print("no error")
sys.exit(1)
