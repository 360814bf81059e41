# source: timm VisionTransformer Attention / Block extended with key padding mask (BERT-style encoder)
# Pre-norm transformer encoder over padded token sequences with masked, renormalised attention probabilities.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, num_heads=4, qkv_bias=True, attn_drop=0.1, proj_drop=0.1):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x, key_padding_mask=None):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        if key_padding_mask is not None:
            attn.masked_fill_(key_padding_mask[:, None, None, :], 0.0)  # culprit
            attn = attn / attn.sum(dim=-1, keepdim=True).clamp(min=1e-6)
        attn = self.attn_drop(attn)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj_drop(self.proj(x))


class Mlp(nn.Module):
    def __init__(self, dim, hidden, act_layer=nn.GELU, drop=0.1):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = act_layer()
        self.fc2 = nn.Linear(hidden, dim)
        self.drop = nn.Dropout(drop)

    def forward(self, x):
        return self.drop(self.fc2(self.drop(self.act(self.fc1(x)))))


class Block(nn.Module):
    def __init__(self, dim, num_heads, mlp_ratio=2.0):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, num_heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = Mlp(dim, int(dim * mlp_ratio))

    def forward(self, x, key_padding_mask=None):
        x = x + self.attn(self.norm1(x), key_padding_mask)
        x = x + self.mlp(self.norm2(x))
        return x


class TextEncoder(nn.Module):
    def __init__(self, vocab=50, dim=32, depth=2, num_heads=4, num_classes=3, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.tok = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.pos = nn.Parameter(torch.zeros(1, 16, dim))
        self.blocks = nn.ModuleList([Block(dim, num_heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, tokens):
        pad = tokens.eq(self.pad_id)
        x = self.tok(tokens) + self.pos[:, : tokens.shape[1]]
        for blk in self.blocks:
            x = blk(x, key_padding_mask=pad)
        x = self.norm(x)
        keep = (~pad).unsqueeze(-1).float()
        pooled = (x * keep).sum(1) / keep.sum(1)
        return self.head(pooled)


def main():
    torch.manual_seed(0)
    model = TextEncoder()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
    tokens = torch.randint(1, 50, (4, 10))
    tokens[0, 7:] = 0
    tokens[2, 5:] = 0
    labels = torch.randint(0, 3, (4,))
    loss = F.cross_entropy(model(tokens), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
