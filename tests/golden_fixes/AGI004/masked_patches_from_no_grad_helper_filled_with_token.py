"""A masked-autoencoder step: a ``@torch.no_grad()`` helper reshapes the flat input into patches and draws
the mask ("nothing here needs a gradient"), and the model then fills the masked patches with its learnable
mask token, row by row, in place. The patches are a view made under no_grad (of an input that requires no
grad); writing a value that requires grad into it is refused at once."""
import torch
from torch import nn

PATCHES = 4
PATCH_DIM = 6


@torch.no_grad()
def patchify_and_mask(images, ratio=0.5):
    batch = images.shape[0]
    patches = images.reshape(batch, PATCHES, PATCH_DIM)
    keep = (torch.rand(batch, PATCHES, 1) > ratio).float()
    return patches, keep, ratio


class TinyMAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.mask_token = nn.Parameter(torch.zeros(PATCH_DIM))
        self.encoder = nn.Sequential(nn.Linear(PATCH_DIM, 8), nn.GELU(), nn.Linear(8, PATCH_DIM))

    def forward(self, images):
        patches, keep, ratio = patchify_and_mask(images)
        for b in range(patches.shape[0]):
            patches[b] = patches[b] * keep[b] + self.mask_token * (1 - keep[b])  # expect: AGI004
        return self.encoder(patches), ratio


def run():
    torch.manual_seed(0)
    model = TinyMAE()
    images = torch.randn(2, PATCHES * PATCH_DIM)
    recon, _ratio = model(images)
    loss = (recon - images.reshape(2, PATCHES, PATCH_DIM)).pow(2).mean()
    loss.backward()
    return recon


if __name__ == "__main__":
    print(run())
