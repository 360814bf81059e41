"""A sequence encoder that pads its per-sequence features into one batch the way torchvision's
``GeneralizedRCNNTransform.batch_images`` pads images: ``feats[0].new_zeros(...)`` and a copy into each
row while iterating it. Iterating a tensor hands out its ``unbind`` outputs, and writing a tensor that
requires grad into an output of a function returning several views, of a tensor that requires none, is
refused at once."""
import torch
import torch.nn as nn


class PaddedEncoder(nn.Module):
    def __init__(self, dim_in, dim):
        super().__init__()
        self.proj = nn.Linear(dim_in, dim)

    def forward(self, seqs):
        feats = [self.proj(s) for s in seqs]
        longest = max(f.shape[0] for f in feats)
        batch = feats[0].new_zeros(len(feats), longest, feats[0].shape[1])
        for f, row in zip(feats, batch):
            row[: f.shape[0]].copy_(f)  # expect: AGI003
        return batch


def run():
    torch.manual_seed(0)
    encoder = PaddedEncoder(3, 4)
    out = encoder([torch.randn(2, 3), torch.randn(5, 3)])
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
