# Source: https://github.com/microsoft/unilm/pull/999 (microsoft/unilm PR #999 "Update L. 116 of backbone.py": fine-tuning fails with "modified by an inplace operation: [torch.cuda.FloatTensor [32, 768, 248]]", triggered by `x += x_conv`; replaced by x = x.clone() + x_conv)
# Unit kind: cross-file
# pos_conv.py's convolutional positional embedding convolves (a transposed view of) the
# features, so the conv saves them; backbone.py's encoder then adds the embedding into
# the features in place.
import torch
import torch.nn as nn

from backbone import TransformerEncoder

torch.manual_seed(0)

frontend = nn.Linear(5, 4)
encoder = TransformerEncoder(4)
x = frontend(torch.randn(2, 6, 5))
encoder(x).mean().backward()
print("done")
