# GRU unrolled by hand; the hidden state is a buffer updated with lerp_ "to save memory"
import torch
import torch.nn as nn


class ManualGRU(nn.Module):
    def __init__(self, n_in, n_h):
        super().__init__()
        self.ih = nn.Linear(n_in, 3 * n_h)
        self.hh = nn.Linear(n_h, 3 * n_h, bias=False)
        self.n_h = n_h

    def forward(self, xs):
        h = xs.new_zeros(xs.shape[1], self.n_h)
        outs = []
        for x in xs:
            gi = self.ih(x)
            gh = self.hh(h)
            r = torch.sigmoid(gi[:, :self.n_h] + gh[:, :self.n_h])
            z = torch.sigmoid(gi[:, self.n_h:2 * self.n_h] + gh[:, self.n_h:2 * self.n_h])
            n = torch.tanh(gi[:, 2 * self.n_h:] + r * gh[:, 2 * self.n_h:])
            h.lerp_(n, 1 - z)  # culprit
            outs.append(h.clone())
        return torch.stack(outs)


torch.manual_seed(0)
gru = ManualGRU(3, 4)
out = gru(torch.randn(5, 2, 3))
out.sum().backward()
print(gru.hh.weight.grad.norm())
