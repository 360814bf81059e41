# source: timm-style ViT Block (older timm used one self.drop_path for both branches) with a DropPath that reuses a preallocated mask buffer
# ViT blocks with stochastic depth: the shared DropPath refills its cached mask in place on the second (MLP) branch call.
import torch
import torch.nn as nn
import torch.nn.functional as F


class DropPath(nn.Module):
    def __init__(self, drop_prob=0.0, max_batch=64):
        super().__init__()
        self.drop_prob = drop_prob
        self.register_buffer("mask", torch.empty(max_batch, 1, 1), persistent=False)

    def forward(self, x):
        if self.drop_prob == 0.0 or not self.training:
            return x
        keep = 1 - self.drop_prob
        m = self.mask[: x.shape[0]]
        m.bernoulli_(keep).div_(keep)  # culprit
        return x * m


class Block(nn.Module):
    def __init__(self, dim, heads, drop_path=0.0):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.drop_path = DropPath(drop_path)

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.drop_path(self.attn(h, h, h, need_weights=False)[0])
        x = x + self.drop_path(self.mlp(self.norm2(x)))
        return x


class TinyViT(nn.Module):
    def __init__(self, img=16, patch=4, dim=32, depth=3, heads=4, n_classes=10, drop_path_rate=0.2):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.randn(1, (img // patch) ** 2 + 1, dim) * 0.02)
        dpr = torch.linspace(0, drop_path_rate, depth).tolist()
        self.blocks = nn.Sequential(*[Block(dim, heads, dpr[i]) for i in range(depth)])
        self.norm, self.head = nn.LayerNorm(dim), nn.Linear(dim, n_classes)

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.size(0), -1, -1), x], dim=1) + self.pos_embed
        return self.head(self.norm(self.blocks(x))[:, 0])


torch.manual_seed(0)
model = TinyViT()
opt = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.05)
imgs, labels = torch.randn(4, 3, 16, 16), torch.randint(0, 10, (4,))
loss = F.cross_entropy(model(imgs), labels, label_smoothing=0.1)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
