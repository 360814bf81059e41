# Same add_module body with ELU instead of Tanh: out-of-place ELU saves its input, not its output, so
# the in-place Hardtanh that follows overwrites nothing saved
import torch
import torch.nn as nn


class Body(nn.Module):
    def __init__(self, d, depth=2):
        super().__init__()
        self.seq = nn.Sequential()
        for i in range(depth):
            self.seq.add_module(f"fc{i}", nn.Linear(d, d))
            self.seq.add_module(f"elu{i}", nn.ELU())
            self.seq.add_module(f"clip{i}", nn.Hardtanh(-0.8, 0.8, inplace=True))

    def forward(self, x):
        return self.seq(x).sum(-1)


torch.manual_seed(0)
body = Body(5)
body(torch.randn(4, 5)).pow(2).mean().backward()
print(body.seq.fc0.weight.grad.norm().item())
