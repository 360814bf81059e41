# Decoder with intra-decoder attention over its own previous outputs, kept in a preallocated buffer
import torch
import torch.nn as nn


class IntraAttnDecoder(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.cell = nn.GRUCell(d, d)
        self.q = nn.Linear(d, d)

    def forward(self, inputs):
        T, B, D = inputs.shape
        outputs = inputs.new_zeros(T, B, D)
        h = inputs.new_zeros(B, D)
        for t in range(T):
            x = inputs[t]
            if t > 0:
                prev = outputs[:t]
                scores = torch.einsum("bd,tbd->bt", self.q(h), prev)
                ctx = torch.einsum("bt,tbd->bd", scores.softmax(-1), prev)
                x = x + ctx
            h = self.cell(x, h)
            outputs[t] = h  # culprit
        return outputs


torch.manual_seed(0)
dec = IntraAttnDecoder(4)
out = dec(torch.randn(4, 2, 4))
out.sum().backward()
print(dec.q.weight.grad.norm())
