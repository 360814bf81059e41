# intended: AGI003
# hand-written GRU cell that applies the gate nonlinearities in place on the chunk()ed pre-activations
import torch
import torch.nn as nn


class MyGRUCell(nn.Module):
    def __init__(self, n_in, n_h):
        super().__init__()
        self.ih = nn.Linear(n_in, 3 * n_h)
        self.hh = nn.Linear(n_h, 3 * n_h)

    def forward(self, x, h):
        gi = self.ih(x)
        gh = self.hh(h)
        i_r, i_z, i_n = gi.chunk(3, 1)
        h_r, h_z, h_n = gh.chunk(3, 1)
        r = i_r.add_(h_r).sigmoid_()  # culprit
        z = torch.sigmoid(i_z + h_z)
        n = torch.tanh(i_n + r * h_n)
        return (1 - z) * n + z * h


def main():
    torch.manual_seed(0)
    cell = MyGRUCell(3, 4)
    h = torch.zeros(2, 4)
    for x in torch.randn(3, 2, 3):
        h = cell(x, h)
    h.sum().backward()
    print(cell.ih.weight.grad.norm().item())


if __name__ == "__main__":
    main()
