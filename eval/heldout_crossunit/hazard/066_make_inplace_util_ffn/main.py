# Source: qianyu-dlut/MVANet#2 ("Training error : Relu variables has been modified by an inplace
# operation", "output 0 of ReluBackward0"; traced to get_activation_fn('relu') plus a loop that
# sets m.inplace = True on every nn.ReLU and nn.Dropout).
# Unit kind: file -- transformer.py's ReLU saves its output; utils.py flips the following Dropout
# to in-place, which rewrites it.
import torch

from transformer import FFN
from utils import make_inplace

torch.manual_seed(0)
ffn = make_inplace(FFN(6, 12)).train()
ffn(torch.randn(2, 3, 6)).sum().backward()
print("done")
