"""A recurrent cell whose gating method multiplies the state by a learned gate: the product saves the
state, and the caller decays that state in place afterwards, before backward."""
import torch
import torch.nn as nn


class GatedCell(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.inp = nn.Linear(dim, dim)
        self.gate = nn.Linear(dim, dim)

    def gated(self, state, x):
        return state * torch.sigmoid(self.gate(x))

    def forward(self, xs):
        state = torch.zeros(xs.size(1), xs.size(2))
        outputs = []
        for x in xs:
            state = state + torch.tanh(self.inp(x))
            out = self.gated(state, x)
            state = state * 0.9  # expect: AGI001
            outputs.append(out)
        return torch.stack(outputs)


def run():
    torch.manual_seed(0)
    cell = GatedCell(4)
    out = cell(torch.randn(3, 2, 4))
    out.pow(2).mean().backward()
    return out


if __name__ == "__main__":
    print(run().shape)
