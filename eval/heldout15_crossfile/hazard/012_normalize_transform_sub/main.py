# Source: https://github.com/ProjectNeura/MIPCandy/pull/159 (`Normalize`: vanished gradient due to in-place operations; the transform was applied to a network output)
# Unit kind: cross-file
import torch

from model import SegNet
import transforms as T

torch.manual_seed(0)
net = SegNet()
normalize = T.Normalize(mean=0.5, std=0.25)
image = torch.randn(2, 1, 8, 8)
target = torch.rand(2, 1, 8, 8)
prob = net(image)
loss = (normalize(prob) - normalize(target.clone())).pow(2).mean()
loss.backward()
print("loss", float(loss))
