"""A gated residual unit whose gate may be normalised (``nn.LayerNorm(dim) if gate_norm else
nn.Identity()``, off by default). The gate is a sigmoid -- which saves its result for backward -- and
with the norm off ``self.gate_norm(gate)`` hands that very tensor back, so scaling it in place
overwrites what the sigmoid saved."""
import torch
import torch.nn as nn


class GatedResidual(nn.Module):
    def __init__(self, dim, scale=0.5, gate_norm=False):
        super().__init__()
        self.gate_proj = nn.Linear(dim, dim)
        self.value = nn.Linear(dim, dim)
        self.gate_norm = nn.LayerNorm(dim) if gate_norm else nn.Identity()
        self.scale = scale

    def forward(self, x):
        gate = torch.sigmoid(self.gate_proj(x))
        gate = self.gate_norm(gate)
        gate = gate.mul(self.scale)  # expect: AGI001
        return x + gate * self.value(x)


def run():
    torch.manual_seed(0)
    unit = GatedResidual(6)
    out = unit(torch.randn(3, 6))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
