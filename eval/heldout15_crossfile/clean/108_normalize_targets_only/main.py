# Source: https://github.com/ProjectNeura/MIPCandy/pull/159 (`Normalize` with in-place operations; here the in-place transform is applied to the ground-truth target only, and the prediction is normalised arithmetically)
# Unit kind: cross-file
# Look-alike of hazard/012
import torch

from model import SegNet
import transforms as T

torch.manual_seed(0)
net = SegNet()
normalize = T.Normalize(mean=0.5, std=0.25)
image = torch.randn(2, 1, 8, 8)
target = torch.rand(2, 1, 8, 8)
prob = net(image)
pred_n = (prob - normalize.mean) / normalize.std
loss = (pred_n - normalize(target)).pow(2).mean()
loss.backward()
print("loss", float(loss))
