# source: timm-style DropPath / stochastic depth, "optimised" with a cached mask buffer, used in a two-view SSL step
# x * self.mask keeps the mask for backward; the second view's forward refills the same buffer with bernoulli_
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


class CachedDropPath(nn.Module):
    def __init__(self, drop_prob, batch):
        super().__init__()
        self.drop_prob = drop_prob
        self.register_buffer("mask", torch.ones(batch, 1, 1), persistent=False)

    def forward(self, x):
        if not self.training or self.drop_prob == 0.0:
            return x
        keep = 1.0 - self.drop_prob
        self.mask.bernoulli_(keep)  # culprit
        return x * self.mask / keep


class Mlp(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class Block(nn.Module):
    def __init__(self, dim, heads, drop_path, batch):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = Mlp(dim, 2 * dim)
        self.drop_path1 = CachedDropPath(drop_path, batch)
        self.drop_path2 = CachedDropPath(drop_path, batch)

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.drop_path1(self.attn(h, h, h, need_weights=False)[0])
        return x + self.drop_path2(self.mlp(self.norm2(x)))


class Encoder(nn.Module):
    def __init__(self, dim=16, depth=3, heads=2, batch=4, drop_path_rate=0.3):
        super().__init__()
        dpr = [drop_path_rate * i / (depth - 1) for i in range(depth)]
        self.blocks = nn.ModuleList(Block(dim, heads, p, batch) for p in dpr)
        self.proj = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 8))

    def forward(self, tokens):
        for blk in self.blocks:
            tokens = blk(tokens)
        return self.proj(tokens.mean(1))


def two_view_loss(model, view1, view2):
    z1 = F.normalize(model(view1), dim=-1)
    z2 = F.normalize(model(view2), dim=-1)
    return 2 - 2 * (z1 * z2).sum(-1).mean()


if __name__ == "__main__":
    model = Encoder()
    opt = PlainSGD(model.parameters(), lr=0.001)
    x = torch.randn(4, 6, 16)
    v1 = x + 0.1 * torch.randn_like(x)
    v2 = x + 0.1 * torch.randn_like(x)
    model.train()
    loss = two_view_loss(model, v1, v2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())
