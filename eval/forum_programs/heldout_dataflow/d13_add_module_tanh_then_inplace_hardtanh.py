# A body assembled with add_module in a loop: Linear, Tanh, then an in-place Hardtanh clip. Tanh saved
# its output, which the clip overwrites.
import torch
import torch.nn as nn


class Body(nn.Module):
    def __init__(self, d, depth=2):
        super().__init__()
        self.seq = nn.Sequential()
        for i in range(depth):
            self.seq.add_module(f"fc{i}", nn.Linear(d, d))
            self.seq.add_module(f"tanh{i}", nn.Tanh())
            self.seq.add_module(f"clip{i}", nn.Hardtanh(-0.8, 0.8, inplace=True))  # culprit

    def forward(self, x):
        return self.seq(x).sum(-1)


torch.manual_seed(0)
body = Body(5)
body(torch.randn(4, 5)).pow(2).mean().backward()
print(body.seq.fc0.weight.grad.norm().item())
