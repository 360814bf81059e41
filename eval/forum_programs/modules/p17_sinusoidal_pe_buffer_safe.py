# sinusoidal PE computed into a buffer with in-place slice writes, added out-of-place
import math
import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=32):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        x = x * math.sqrt(x.size(-1))
        x += self.pe[:, : x.size(1)]
        return x


def main():
    torch.manual_seed(0)
    emb = nn.Embedding(10, 8)
    pe = PositionalEncoding(8)
    enc = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
    y = enc(pe(emb(torch.randint(0, 10, (2, 7)))))
    y.sum().backward()
    print(emb.weight.grad.abs().sum())


if __name__ == "__main__":
    main()
