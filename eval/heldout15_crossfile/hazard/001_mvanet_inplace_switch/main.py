# Source: https://github.com/qianyu-dlut/MVANet/issues/2 (ReluBackward0 output modified in place; get_activation_fn('relu') plus a loop that sets m.inplace = True on every nn.ReLU)
# Unit kind: cross-file
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
