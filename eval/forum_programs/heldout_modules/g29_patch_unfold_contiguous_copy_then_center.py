# Patch embedding: unfold into patches, make them contiguous (a copy) and normalise that copy in place
import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, c, p, d):
        super().__init__()
        self.p = p
        self.proj = nn.Linear(c * p * p, d)
        self.act = nn.Sigmoid()

    def forward(self, x):
        x = self.act(x)
        B, C, H, W = x.shape
        patches = x.unfold(2, self.p, self.p).unfold(3, self.p, self.p)
        patches = patches.permute(0, 2, 3, 1, 4, 5).contiguous()
        patches -= patches.mean(dim=(-1, -2), keepdim=True)
        patches = patches.view(B, -1, C * self.p * self.p)
        return self.proj(patches)


torch.manual_seed(0)
pe = PatchEmbed(2, 2, 4)
inp = torch.randn(1, 2, 4, 4, requires_grad=True)
pe(inp).sum().backward()
print(inp.grad.norm())
