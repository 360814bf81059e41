# source: https://github.com/microsoft/unilm/pull/999 (BEATs TransformerEncoder: x_conv = pos_conv(x.transpose(1, 2)); x += x_conv)
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SamePad(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.remove = 1 if kernel_size % 2 == 0 else 0

    def forward(self, x):
        if self.remove > 0:
            x = x[:, :, : -self.remove]
        return x


class TransformerEncoder(nn.Module):
    def __init__(self, embedding_dim=8, conv_pos=4, conv_pos_groups=2, layers=1):
        super().__init__()
        self.embedding_dim = embedding_dim
        self.pos_conv = nn.Conv1d(embedding_dim, embedding_dim, kernel_size=conv_pos,
                                  padding=conv_pos // 2, groups=conv_pos_groups)
        std = math.sqrt(4 / (conv_pos * embedding_dim))
        nn.init.normal_(self.pos_conv.weight, mean=0, std=std)
        nn.init.constant_(self.pos_conv.bias, 0)
        self.pos_conv = nn.Sequential(self.pos_conv, SamePad(conv_pos), nn.GELU())
        self.layers = nn.ModuleList([nn.TransformerEncoderLayer(embedding_dim, 2, 16, dropout=0.0, batch_first=True)
                                     for _ in range(layers)])
        self.layer_norm = nn.LayerNorm(embedding_dim)

    def forward(self, x, padding_mask=None):
        x = self.extract_features(x, padding_mask)
        return self.layer_norm(x)

    def extract_features(self, x, padding_mask=None):
        if padding_mask is not None:
            x[padding_mask] = 0
        x_conv = self.pos_conv(x.transpose(1, 2))
        x_conv = x_conv.transpose(1, 2)
        x += x_conv  # culprit
        x = self.layer_norm(x)
        x = F.dropout(x, p=0.0, training=self.training)
        for layer in self.layers:
            x = layer(x, src_key_padding_mask=padding_mask)
        return x


class FeatureExtractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch_embedding = nn.Conv2d(1, 8, kernel_size=4, stride=4, bias=False)
        self.post_extract_proj = nn.Linear(8, 8)

    def forward(self, fbank):
        features = self.patch_embedding(fbank.unsqueeze(1))
        features = features.reshape(features.shape[0], features.shape[1], -1).transpose(1, 2)
        return self.post_extract_proj(features)


torch.manual_seed(0)
fe = FeatureExtractor()
enc = TransformerEncoder()
head = nn.Linear(8, 3)
fbank = torch.randn(2, 8, 16)
x = enc(fe(fbank))
logits = head(x.mean(1))
loss = F.cross_entropy(logits, torch.tensor([0, 2]))
loss.backward()
print(loss.item())
