# Temporal conv block: ELU followed by in-place channel dropout (ELU keeps its input, not its output)
import torch
import torch.nn as nn


class TemporalBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv1d(c, c, 3, padding=1),
            nn.ELU(),
            nn.Dropout1d(0.2, inplace=True),
            nn.Conv1d(c, c, 3, padding=1),
        )

    def forward(self, x):
        return x + self.body(x)


torch.manual_seed(0)
blk = TemporalBlock(4).train()
out = blk(torch.randn(2, 4, 7))
out.pow(2).mean().backward()
print(blk.body[0].weight.grad.norm())
