# Source: https://github.com/pytorch/pytorch/pull/32839 (pytorch/pytorch PR #32839 "Clean views created inside no_grad that are modified inplace": "A view created in no_grad mode is being modified inplace ... You should have both the view and inplace inside the no_grad block"); see also https://github.com/pytorch/pytorch/pull/88243
# Unit kind: cross-function (method)
# A patch bank hands out row views of a feature map from a @torch.no_grad() method;
# the refinement function adds a learned bias to each patch in place with grad on.
import torch
import torch.nn as nn

torch.manual_seed(0)


class PatchBank:
    def __init__(self, feats):
        self.feats = feats

    @torch.no_grad()
    def select(self, rows):
        return [self.feats[r] for r in rows]


def refine(patches, bias):
    for p in patches:
        p.add_(bias)  # culprit
    return patches


encoder = nn.Linear(4, 6)
bias = nn.Parameter(torch.zeros(6))
bank = PatchBank(encoder(torch.randn(5, 4)))
patches = refine(bank.select([0, 2]), bias)
loss = bank.feats.sum() + sum(p.sum() for p in patches)
loss.backward()
print("done")
