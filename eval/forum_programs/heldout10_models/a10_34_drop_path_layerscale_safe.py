# source: timm drop_path() + LayerScale(inplace=True) in a ViT/DeiT-III block, used in a two-view SSL step
# a fresh bernoulli_ mask per call (div_ before use) and LayerScale x.mul_(gamma) on Linear outputs, which Linear does not keep
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
    def __init__(self, drop_prob):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training)


class LayerScale(nn.Module):
    def __init__(self, dim, init_values=1e-5, inplace=True):
        super().__init__()
        self.inplace = inplace
        self.gamma = nn.Parameter(init_values * torch.ones(dim))

    def forward(self, x):
        return x.mul_(self.gamma) if self.inplace else x * self.gamma


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4).unbind(0)
        attn = (q * (C // self.heads) ** -0.5) @ k.transpose(-2, -1)
        x = (attn.softmax(-1) @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(x)


class Block(nn.Module):
    def __init__(self, dim, heads, dp):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, heads)
        self.ls1 = LayerScale(dim, 0.1)
        self.drop_path1 = DropPath(dp)
        self.norm2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 2 * dim)
        self.fc2 = nn.Linear(2 * dim, dim)
        self.ls2 = LayerScale(dim, 0.1)
        self.drop_path2 = DropPath(dp)

    def forward(self, x):
        x = x + self.drop_path1(self.ls1(self.attn(self.norm1(x))))
        x = x + self.drop_path2(self.ls2(self.fc2(F.gelu(self.fc1(self.norm2(x))))))
        return x


class Encoder(nn.Module):
    def __init__(self, dim=16, depth=3, heads=2, drop_path_rate=0.3):
        super().__init__()
        dpr = [drop_path_rate * i / (depth - 1) for i in range(depth)]
        self.blocks = nn.ModuleList(Block(dim, heads, p) for p in dpr)
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
    model.train()
    for step in range(2):
        x = torch.randn(4, 6, 16)
        loss = two_view_loss(model, x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
