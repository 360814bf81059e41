# Deep supervision: each stage's ReLU activation is appended to a list; the caller clamps one stage's
# features in place before computing the auxiliary losses
import torch
import torch.nn as nn


class Stages(nn.Module):
    def __init__(self, d, n=3):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(d, d) for _ in range(n))

    def forward(self, x):
        feats = []
        for layer in self.layers:
            x = torch.relu(layer(x))
            feats.append(x)
        return feats


torch.manual_seed(0)
net = Stages(6)
feats = net(torch.randn(4, 6))
feats[1].clamp_(max=1.0)  # culprit
loss = sum(f.pow(2).mean() for f in feats)
loss.backward()
print(net.layers[0].weight.grad.norm().item())
