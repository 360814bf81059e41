# torchmetrics.functional.clustering.davies_bouldin_score:
# centroid_distances[centroid_distances == 0] = inf after torch.cdist saved its result.
# DaviesBouldinScore declares is_differentiable = True; data = embeddings from a model.
import torch, typing
from torch import Tensor
from extract import load
ns = dict(torch=torch, Tensor=Tensor)
load('torchmetrics-1.9.0/torchmetrics/functional/clustering/davies_bouldin_score.py', {"davies_bouldin_score"}, ns)
ns['_validate_intrinsic_cluster_data'] = lambda d, l: None      # shape checks only
ns['_validate_intrinsic_labels_to_samples'] = lambda a, b: None
torch.manual_seed(0)
data = torch.randn(20, 3, requires_grad=True)
labels = torch.randint(0, 3, (20,))
score = ns["davies_bouldin_score"](data, labels)
score.backward()
print("no error")
