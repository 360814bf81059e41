# Source: OpenNMT/OpenNMT-py#867 ("Coverage in Global Attention": memory_bank +=
# self.linear_cover(cover).view_as(memory_bank); memory_bank = self.tanh(memory_bank)).
# Unit kind: class -- the decoder's context bmm saves the memory bank at step t; at step t+1 the
# GlobalAttention class adds the coverage term into that same tensor in place.
import torch
import torch.nn as nn

torch.manual_seed(0)


class GlobalAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.linear_cover = nn.Linear(1, d, bias=False)
        self.linear_in = nn.Linear(d, d, bias=False)

    def forward(self, query, memory_bank, coverage=None):
        if coverage is not None:
            cover = coverage.view(-1).unsqueeze(1)
            memory_bank += self.linear_cover(cover).view_as(memory_bank)  # culprit
        keys = torch.tanh(memory_bank)
        scores = torch.bmm(keys, self.linear_in(query).unsqueeze(2)).squeeze(2)
        return torch.softmax(scores, -1)


class Decoder(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.cell = nn.GRUCell(d, d)
        self.attn = GlobalAttention(d)

    def forward(self, memory_bank, steps=2):
        h = memory_bank.mean(1)
        coverage, outs = None, []
        for _ in range(steps):
            h = self.cell(h, h)
            align = self.attn(h, memory_bank, coverage)
            context = torch.bmm(align.unsqueeze(1), memory_bank).squeeze(1)
            coverage = align if coverage is None else coverage + align
            outs.append(context)
        return torch.stack(outs)


encoder = nn.Linear(5, 6)
memory_bank = encoder(torch.randn(2, 4, 5))
Decoder(6)(memory_bank).sum().backward()
print("done")
