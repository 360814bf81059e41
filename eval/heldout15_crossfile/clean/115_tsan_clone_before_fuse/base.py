import torch.nn as nn


class FusionBase(nn.Module):
    """Shared fusion logic for the attention branches."""

    def fuse(self, out, extra):
        out += extra
        return out
