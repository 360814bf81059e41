# A forward pre-hook on the first layer clips the raw input batch in place before the layer runs; the
# data does not require grad and nothing saved it yet
import torch
import torch.nn as nn


def clip_inputs(module, args):
    args[0].clamp_(-2.0, 2.0)


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 2))
net[0].register_forward_pre_hook(clip_inputs)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(2):
    x = torch.randn(8, 4) * 3
    loss = net(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
