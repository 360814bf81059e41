# probe: tanh saves its output; decaying the hidden state stored on the module with self.h *= ... makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


class DecayCell(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.inp = nn.Linear(dim, dim)
        self.rec = nn.Linear(dim, dim)
        self.h = None

    def reset(self, batch, dim):
        self.h = torch.zeros(batch, dim)

    def step(self, x):
        self.h = torch.tanh(self.inp(x) + self.rec(self.h))
        return self.h

    def decay(self, factor):
        self.h *= factor  # culprit


def main():
    cell = DecayCell(4)
    cell.reset(2, 4)
    xs = torch.randn(3, 2, 4)
    outs = [cell.step(x_t) for x_t in xs]
    cell.decay(0.5)
    loss = sum(o.sum() for o in outs)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
