# intended: AGI001
# Hand-written LSTM cell that activates the gate slices in place to save memory. sigmoid_
# on the first three slices saves its result; tanh_ on the last slice bumps the version of
# the shared base, so the saved sigmoid result goes stale though the slices are disjoint.
import torch
import torch.nn as nn


class FastLSTMCell(nn.Module):
    def __init__(self, d_in, H):
        super().__init__()
        self.ih = nn.Linear(d_in, 4 * H)
        self.hh = nn.Linear(H, 4 * H)
        self.H = H

    def forward(self, x, state):
        h, c = state
        H = self.H
        gates = self.ih(x) + self.hh(h)
        gates[:, : 3 * H].sigmoid_()
        gates[:, 3 * H:].tanh_()  # culprit
        i, f, o = gates[:, :H], gates[:, H:2 * H], gates[:, 2 * H:3 * H]
        g = gates[:, 3 * H:]
        c = f * c + i * g
        h = o * torch.tanh(c)
        return h, c


def main():
    torch.manual_seed(0)
    cell = FastLSTMCell(3, 5)
    head = nn.Linear(5, 1)
    x = torch.randn(4, 6, 3)
    h = c = torch.zeros(4, 5)
    for t in range(x.shape[1]):
        h, c = cell(x[:, t], (h, c))
    loss = head(h).pow(2).mean()
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
