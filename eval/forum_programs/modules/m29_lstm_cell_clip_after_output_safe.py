# intended: safe
# hand-unrolled LSTM with cell clipping applied in place after h = o * tanh(c) was computed
import torch
import torch.nn as nn


class ClippedLSTM(nn.Module):
    def __init__(self, n_in, n_h, cell_clip=0.5):
        super().__init__()
        self.ih = nn.Linear(n_in, 4 * n_h)
        self.hh = nn.Linear(n_h, 4 * n_h, bias=False)
        self.n_h = n_h
        self.cell_clip = cell_clip

    def forward(self, xs):
        B = xs.size(1)
        h = xs.new_zeros(B, self.n_h)
        c = xs.new_zeros(B, self.n_h)
        hs = []
        for x in xs:
            gates = self.ih(x) + self.hh(h)
            i, f, g, o = gates.chunk(4, 1)
            i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
            c = f * c + i * g
            h = o * torch.tanh(c)
            c.clamp_(-self.cell_clip, self.cell_clip)
            hs.append(h)
        return torch.stack(hs)


def main():
    torch.manual_seed(0)
    lstm = ClippedLSTM(3, 4)
    xs = torch.randn(5, 2, 3) * 3
    loss = lstm(xs).pow(2).sum()
    loss.backward()
    print(lstm.hh.weight.grad.norm().item())


if __name__ == "__main__":
    main()
