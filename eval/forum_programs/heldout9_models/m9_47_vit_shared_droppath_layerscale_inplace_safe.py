# source: timm vision_transformer.py Block with LayerScale(inplace=True) and timm layers/drop.py drop_path (fresh mask, scale_by_keep)
# ViT blocks with in-place LayerScale on each branch output and a shared DropPath that draws a fresh mask per call.
import torch
import torch.nn as nn
import torch.nn.functional as F


def drop_path(x, drop_prob=0.0, training=False, scale_by_keep=True):
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor


class DropPath(nn.Module):
    def __init__(self, drop_prob=0.0):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training)


class LayerScale(nn.Module):
    def __init__(self, dim, init_values=1e-5, inplace=False):
        super().__init__()
        self.inplace = inplace
        self.gamma = nn.Parameter(init_values * torch.ones(dim))

    def forward(self, x):
        return x.mul_(self.gamma) if self.inplace else x * self.gamma


class Block(nn.Module):
    def __init__(self, dim, heads, drop_path=0.0):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ls1, self.ls2 = LayerScale(dim, inplace=True), LayerScale(dim, inplace=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.drop_path = DropPath(drop_path)

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.drop_path(self.ls1(self.attn(h, h, h, need_weights=False)[0]))
        x = x + self.drop_path(self.ls2(self.mlp(self.norm2(x))))
        return x


torch.manual_seed(0)
dim, depth = 32, 3
patch_embed = nn.Conv2d(3, dim, 4, 4)
dpr = torch.linspace(0, 0.2, depth).tolist()
blocks = nn.Sequential(*[Block(dim, 4, dpr[i]) for i in range(depth)])
head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 10))
opt = torch.optim.AdamW([*patch_embed.parameters(), *blocks.parameters(), *head.parameters()], lr=5e-4)
imgs, labels = torch.randn(4, 3, 16, 16), torch.randint(0, 10, (4,))
for _ in range(2):
    tokens = patch_embed(imgs).flatten(2).transpose(1, 2)
    loss = F.cross_entropy(head(blocks(tokens).mean(1)), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
