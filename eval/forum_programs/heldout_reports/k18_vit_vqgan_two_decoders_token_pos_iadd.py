# source: https://github.com/thuanz123/enhancing-transformers/issues/11 (ViTDecoder adds the position embedding into its input in place; two decoders share quant)
import torch
import torch.nn as nn


class PreNorm(nn.Module):
    def __init__(self, dim, fn):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fn = fn

    def forward(self, x):
        return self.fn(self.norm(x))


class Transformer(nn.Module):
    def __init__(self, dim, depth, heads):
        super().__init__()
        self.layers = nn.ModuleList([])
        for _ in range(depth):
            self.layers.append(nn.ModuleList([
                PreNorm(dim, nn.Linear(dim, dim)),
                PreNorm(dim, nn.Sequential(nn.Linear(dim, 2 * dim), nn.Tanh(), nn.Linear(2 * dim, dim)))]))
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        for attn, ff in self.layers:
            x = attn(x) + x
            x = ff(x) + x
        return self.norm(x)


class ViTDecoder(nn.Module):
    def __init__(self, num_patches, dim, depth, heads, patch_dim):
        super().__init__()
        self.de_pos_embedding = nn.Parameter(torch.randn(1, num_patches, dim) * 0.02)
        self.transformer = Transformer(dim, depth, heads)
        self.to_pixel = nn.Linear(dim, patch_dim)

    def forward(self, token):
        x = token
        x += self.de_pos_embedding  # culprit
        x = self.transformer(x)
        return self.to_pixel(x)


class Encoder(nn.Module):
    def __init__(self, patch_dim, dim):
        super().__init__()
        self.proj = nn.Linear(patch_dim, dim)

    def forward(self, patches):
        return self.proj(patches)


torch.manual_seed(0)
encoder = Encoder(12, 8)
decoder_a = ViTDecoder(4, 8, 1, 2, 12)
decoder_b = ViTDecoder(4, 8, 1, 2, 12)
patches = torch.randn(2, 4, 12)
quant = encoder(patches)
rec_a = decoder_a(quant)
rec_b = decoder_b(quant)
loss = (rec_a - patches).abs().mean() + (rec_b - patches).abs().mean()
loss.backward()
print(loss.item())
