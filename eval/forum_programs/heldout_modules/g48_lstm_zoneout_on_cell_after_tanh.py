# Hand-unrolled LSTM with zoneout applied in place to the new cell state after the output was computed
import torch
import torch.nn as nn


class ZoneoutLSTM(nn.Module):
    def __init__(self, n_in, n_h, p=0.3):
        super().__init__()
        self.lin = nn.Linear(n_in + n_h, 4 * n_h)
        self.n_h = n_h
        self.p = p

    def forward(self, xs):
        B = xs.shape[1]
        h = xs.new_zeros(B, self.n_h)
        c = xs.new_zeros(B, self.n_h)
        outs = []
        for x in xs:
            i, f, g, o = self.lin(torch.cat([x, h], 1)).chunk(4, 1)
            c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c_new)
            keep = (torch.rand(B, self.n_h) < self.p).float()
            c_new.mul_(1 - keep).add_(keep * c)
            c = c_new
            outs.append(h)
        return torch.stack(outs)


torch.manual_seed(0)
lstm = ZoneoutLSTM(2, 3)
lstm(torch.randn(4, 2, 2)).sum().backward()
print(lstm.lin.weight.grad.norm())
