# Source: https://github.com/vislearn/FrEIA/pull/171 (in-place operations broke backpropagation in a flow block; here, in that shape, the running scale is updated after the backward that needed it)
# Unit kind: cross-file
# Look-alike of hazard/014
import torch

from model import ScaledEncoder
from stats import RunningScale

torch.manual_seed(0)
scaler = RunningScale(6, momentum=0.9)
enc = ScaledEncoder(4, 6, scaler)
x = torch.randn(16, 4)
z, h = enc(x)
loss = z.pow(2).mean()
loss.backward()
scaler.update(h.detach())
print("loss", float(loss))
