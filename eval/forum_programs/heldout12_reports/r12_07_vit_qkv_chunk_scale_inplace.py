# source: ViT re-implementation thread (lucidrains/vit-pytorch style attention): "q *= self.scale" after to_qkv(x).chunk(3) raises "Output 0 of Split... is a view ... returns multiple views"
# q is one of several views returned by chunk(); scaling it in place is forbidden
import torch
import torch.nn as nn

torch.manual_seed(0)


class Attention(nn.Module):
    def __init__(self, dim, heads=2, dim_head=4):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.to_qkv = nn.Linear(dim, inner * 3, bias=False)
        self.to_out = nn.Linear(inner, dim)

    def split_heads(self, t):
        b, n, _ = t.shape
        return t.reshape(b, n, self.heads, -1).transpose(1, 2)

    def forward(self, x):
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q *= self.scale  # culprit
        q, k, v = map(self.split_heads, (q, k, v))
        attn = (q @ k.transpose(-1, -2)).softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(x.shape[0], x.shape[1], -1)
        return self.to_out(out)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = Attention(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


patches = torch.randn(2, 5, 8)
model = nn.Sequential(Block(8), Block(8))
out = model(patches)
out.pow(2).mean().backward()
print(out.shape)
