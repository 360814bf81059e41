# Source: https://github.com/qianyu-dlut/MVANet/issues/2 (the m.inplace = True loop over every nn.ReLU; here each ReLU follows a BatchNorm, whose backward does not need its output)
# Unit kind: cross-file
# Look-alike of hazard/001
import torch

from models.net import RefineNet
from models.utils import make_relu_inplace

torch.manual_seed(0)
net = RefineNet(8)
make_relu_inplace(net)
x = torch.randn(4, 8)
out = net(x)
loss = out.pow(2).mean()
loss.backward()
print("loss", float(loss))
