# Source: https://github.com/pytorch/pytorch/pull/32839 (pytorch/pytorch PR #32839: "You should have both the view and inplace inside the no_grad block if you do NOT want the change to be tracked by the autograd")
# Unit kind: cross-function (method)
# Look-alike of hazard/014: the views come from a @torch.no_grad() method and the
# refinement that writes into them is decorated with @torch.no_grad() too; the patches
# are read back under no_grad as well (reading them with grad on would raise).
import torch
import torch.nn as nn

torch.manual_seed(0)


class PatchBank:
    def __init__(self, feats):
        self.feats = feats

    @torch.no_grad()
    def select(self, rows):
        return [self.feats[r] for r in rows]


@torch.no_grad()
def refine(patches, bias):
    for p in patches:
        p.add_(bias)
    return patches


encoder = nn.Linear(4, 6)
bias = torch.full((6,), 0.1)
bank = PatchBank(encoder(torch.randn(5, 4)))
patches = refine(bank.select([0, 2]), bias)
loss = (bank.feats * 2).sum()
loss.backward()
with torch.no_grad():
    print(sum(p.sum() for p in patches).item())
