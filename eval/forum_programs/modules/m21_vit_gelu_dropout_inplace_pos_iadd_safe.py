# intended: safe
# ViT-ish patch embedding: GELU, dropout(inplace=True), then the positional embedding added with +=
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchEmbed(nn.Module):
    def __init__(self, patch, d, n_patches):
        super().__init__()
        self.patch = patch
        self.proj = nn.Linear(3 * patch * patch, d)
        self.pos_embed = nn.Parameter(torch.randn(1, n_patches, d) * 0.02)

    def forward(self, img):
        B = img.size(0)
        p = self.patch
        patches = img.unfold(2, p, p).unfold(3, p, p).reshape(B, 3, -1, p * p)
        patches = patches.permute(0, 2, 1, 3).reshape(B, -1, 3 * p * p)
        x = F.gelu(self.proj(patches))
        x = F.dropout(x, p=0.1, training=self.training, inplace=True)
        x += self.pos_embed
        return x


def main():
    torch.manual_seed(0)
    emb = PatchEmbed(2, 8, 4)
    head = nn.Linear(8, 2)
    img = torch.randn(2, 3, 4, 4)
    logits = head(emb(img).mean(1))
    loss = F.cross_entropy(logits, torch.tensor([0, 1]))
    loss.backward()
    print(emb.pos_embed.grad.abs().sum().item())


if __name__ == "__main__":
    main()
