import torch


@torch.no_grad()
def as_patches(feat, size):
    """Cheap bookkeeping view: (B, C, L) -> (B, C, L // size, size)."""
    b, c, length = feat.shape
    return feat.view(b, c, length // size, size)
