import torch.nn as nn

from pos_conv import ConvPositionalEmbedding


class TransformerEncoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.pos_conv = ConvPositionalEmbedding(dim)
        self.layer_norm = nn.LayerNorm(dim)
        self.layer = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=8, dropout=0.0, batch_first=True)

    def forward(self, x):
        x_conv = self.pos_conv(x)
        x += x_conv  # culprit
        return self.layer(self.layer_norm(x))
