# same as the .detach() version but using .data (bypasses version tracking: no error)
import torch
import torch.nn as nn


class Gate(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, x, drop_idx):
        g = torch.sigmoid(self.lin(x))
        out = g * x
        g_raw = g.data
        g_raw[:, drop_idx] = 0.0
        return out, g_raw


def main():
    torch.manual_seed(0)
    m = Gate(6)
    x = torch.randn(3, 6)
    out, g = m(x, [1, 4])
    out.sum().backward()
    print(m.lin.weight.grad.norm(), g.sum())


if __name__ == "__main__":
    main()
