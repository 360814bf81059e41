# Source: pytorch/pytorch PR #32839 ("Clean views created inside no_grad that are modified
# inplace") and PR #103185 (the message "A view was created in no_grad mode and is being modified
# inplace with grad mode enabled").
# Unit kind: file -- features.py cuts the view under no_grad; head.py adds into it with grad on.
import torch
import torch.nn as nn

from features import cls_token_view
from head import ProbeHead

torch.manual_seed(0)
encoder = nn.Linear(5, 6)
hidden = encoder(torch.randn(2, 3, 5))
ProbeHead(6, 2)(cls_token_view(hidden)).sum().backward()
print("done")
