"""A DETR-style encoder layer picks its activation with ``_get_activation_fn(activation)`` (``F.relu`` by
default), and the model, to save memory, switches every dropout in place after building itself
(``for m in self.modules(): ... m.inplace = True``). The feed-forward block then runs the in-place dropout
on relu's output, which relu saved for backward: backward raises."""
import torch
import torch.nn.functional as F
from torch import nn


def _get_activation_fn(activation):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}.")


class EncoderLayer(nn.Module):
    def __init__(self, d_model, dim_feedforward=16, dropout=0.1, activation="relu"):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, 2, dropout=dropout)
        self.linear1 = nn.Linear(d_model, dim_feedforward)
        self.linear2 = nn.Linear(dim_feedforward, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)
        self.activation = _get_activation_fn(activation)

    def forward(self, src):
        src = self.norm1(src + self.self_attn(src, src, src)[0])
        ffn = self.linear2(self.dropout(self.activation(self.linear1(src)).clone()))  # expect: AGI001
        return self.norm2(src + ffn)


class Encoder(nn.Module):
    def __init__(self, d_model=8, layers=2):
        super().__init__()
        self.layers = nn.ModuleList([EncoderLayer(d_model) for _ in range(layers)])
        for m in self.modules():
            if isinstance(m, nn.Dropout):
                m.inplace = True

    def forward(self, src):
        for layer in self.layers:
            src = layer(src)
        return src


def run():
    torch.manual_seed(0)
    model = Encoder()
    out = model(torch.randn(5, 2, 8))
    out.pow(2).mean().backward()
    return out


if __name__ == "__main__":
    print(run())
