# Source: https://github.com/vislearn/FrEIA/pull/171 (fixed an error in backpropagation caused by in-place operations in a flow block; here, in that shape, a running scale buffer the forward divides by is updated in place before backward)
# Unit kind: cross-file
import torch

from model import ScaledEncoder
from stats import RunningScale

torch.manual_seed(0)
scaler = RunningScale(6, momentum=0.9)
enc = ScaledEncoder(4, 6, scaler)
x = torch.randn(16, 4)
z, h = enc(x)
scaler.update(h.detach())
loss = z.pow(2).mean()
loss.backward()
print("loss", float(loss))
