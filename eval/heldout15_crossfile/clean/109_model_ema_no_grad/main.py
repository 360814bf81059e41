# Source: https://github.com/huggingface/pytorch-image-models/pull/1553 (in-place mul_/add_ for the EMA; timm runs the update under torch.no_grad, as here)
# Unit kind: cross-file
# Look-alike of hazard/013
import torch

from ema import ModelEma
from net import TinyNet

torch.manual_seed(0)
model = TinyNet()
ema = ModelEma(model, decay=0.99)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 4), torch.randn(8, 1)
for _ in range(2):
    loss = (model(x) - y).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema.update(model)
print("ema loss", float((ema.module(x) - y).pow(2).mean()))
