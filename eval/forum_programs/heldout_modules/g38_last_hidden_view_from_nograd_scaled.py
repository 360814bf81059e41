# Encoder returns the last hidden state, picked under no_grad "because it is only an index", then scaled
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.rnn = nn.GRU(d, d, batch_first=True)

    def forward(self, x, lengths):
        out, _ = self.rnn(x)
        with torch.no_grad():
            last = out[:, -1]
        last.mul_(0.5)  # culprit
        return out, last


torch.manual_seed(0)
enc = Encoder(3)
out, last = enc(torch.randn(2, 4, 3), torch.tensor([4, 4]))
(out.sum() + last.sum()).backward()
print(enc.rnn.weight_hh_l0.grad.norm())
