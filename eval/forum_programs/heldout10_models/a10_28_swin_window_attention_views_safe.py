# source: Swin Transformer WindowAttention / SwinTransformerBlock (microsoft/Swin-Transformer, timm)
# qkv.unbind(0) with out-of-place q scaling; relative-position bias and shift mask added in place to q @ k^T (and to a .view of it)
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


def window_partition(x, ws):
    B, H, W, C = x.shape
    x = x.view(B, H // ws, ws, W // ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws, ws, C)


def window_reverse(windows, ws, H, W):
    B = int(windows.shape[0] / (H * W / ws / ws))
    x = windows.view(B, H // ws, W // ws, ws, ws, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(B, H, W, -1)


class WindowAttention(nn.Module):
    def __init__(self, dim, ws, heads):
        super().__init__()
        self.ws, self.heads = ws, heads
        self.scale = (dim // heads) ** -0.5
        self.relative_position_bias_table = nn.Parameter(torch.randn((2 * ws - 1) ** 2, heads) * 0.02)
        coords = torch.stack(torch.meshgrid(torch.arange(ws), torch.arange(ws), indexing="ij")).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0).contiguous()
        rel[:, :, 0] += ws - 1
        rel[:, :, 1] += ws - 1
        rel[:, :, 0] *= 2 * ws - 1
        self.register_buffer("relative_position_index", rel.sum(-1))
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask=None):
        B_, N, C = x.shape
        qkv = self.qkv(x).reshape(B_, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        q = q * self.scale
        attn = q @ k.transpose(-2, -1)
        bias = self.relative_position_bias_table[self.relative_position_index.view(-1)]
        bias = bias.view(N, N, -1).permute(2, 0, 1).contiguous()
        attn += bias.unsqueeze(0)
        if mask is not None:
            nW = mask.shape[0]
            attn_w = attn.view(B_ // nW, nW, self.heads, N, N)
            attn_w += mask.unsqueeze(1).unsqueeze(0)
            attn = attn_w.view(-1, self.heads, N, N)
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B_, N, C)
        return self.proj(x)


class SwinBlock(nn.Module):
    def __init__(self, dim, H, W, ws=2, shift=0, heads=2):
        super().__init__()
        self.H, self.W, self.ws, self.shift = H, W, ws, shift
        self.norm1 = nn.LayerNorm(dim)
        self.attn = WindowAttention(dim, ws, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        mask = None
        if shift > 0:
            with torch.no_grad():
                img_mask = torch.zeros(1, H, W, 1)
                cnt = 0
                for hs in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
                    for wsl in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
                        img_mask[:, hs, wsl, :] = cnt
                        cnt += 1
                mw = window_partition(img_mask, ws).view(-1, ws * ws)
                mask = mw.unsqueeze(1) - mw.unsqueeze(2)
                mask = mask.masked_fill(mask != 0, -100.0).masked_fill(mask == 0, 0.0)
        self.register_buffer("attn_mask", mask)

    def forward(self, x):
        B, L, C = x.shape
        shortcut = x
        x = self.norm1(x).view(B, self.H, self.W, C)
        if self.shift > 0:
            x = torch.roll(x, shifts=(-self.shift, -self.shift), dims=(1, 2))
        win = window_partition(x, self.ws).view(-1, self.ws * self.ws, C)
        win = self.attn(win, self.attn_mask)
        x = window_reverse(win.view(-1, self.ws, self.ws, C), self.ws, self.H, self.W)
        if self.shift > 0:
            x = torch.roll(x, shifts=(self.shift, self.shift), dims=(1, 2))
        x = shortcut + x.reshape(B, L, C)
        return x + self.mlp(self.norm2(x))


class TinySwin(nn.Module):
    def __init__(self, dim=16, classes=5):
        super().__init__()
        self.patch = nn.Conv2d(3, dim, 4, 4)
        self.blocks = nn.ModuleList([SwinBlock(dim, 4, 4, shift=0), SwinBlock(dim, 4, 4, shift=1)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, img):
        x = self.patch(img).flatten(2).transpose(1, 2)
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x).mean(1))


if __name__ == "__main__":
    model = TinySwin()
    opt = PlainSGD(model.parameters(), lr=0.001)
    for step in range(2):
        img = torch.randn(2, 3, 16, 16)
        loss = F.cross_entropy(model(img), torch.tensor([1, 4]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
