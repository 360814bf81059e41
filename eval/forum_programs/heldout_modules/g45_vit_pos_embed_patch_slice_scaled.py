# ViT: the patch part of the positional embedding (a slice of the Parameter) is scaled in place
import torch
import torch.nn as nn


class TinyViT(nn.Module):
    def __init__(self, n_patches, d):
        super().__init__()
        self.patch = nn.Linear(4, d)
        self.cls = nn.Parameter(torch.zeros(1, 1, d))
        self.pos_embed = nn.Parameter(torch.randn(1, n_patches + 1, d) * 0.02)
        self.pos_scale = 0.5

    def forward(self, p):
        x = self.patch(p)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1)
        patch_pos = self.pos_embed[:, 1:]
        patch_pos *= self.pos_scale  # culprit
        return x + self.pos_embed


torch.manual_seed(0)
vit = TinyViT(3, 4)
vit(torch.randn(2, 3, 4)).sum().backward()
print(vit.pos_embed.grad.norm())
