"""An embedding that keeps its padding row at zero: the row is looked up under ``no_grad`` (a view of the
weight, a leaf that requires grad) and zeroed after the block, with grad mode back on."""
import torch
from torch import nn


class TokenEmbedding(nn.Module):
    def __init__(self, vocab, dim, padding_idx=0):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.padding_idx = padding_idx
        self.reset_padding()

    def reset_padding(self):
        with torch.no_grad():
            row = self.embed.weight[self.padding_idx]
        with torch.no_grad():
            row.zero_()  # expect: AGI004

    def forward(self, tokens):
        return self.embed(tokens)


def run():
    torch.manual_seed(0)
    model = TokenEmbedding(10, 4)
    out = model(torch.tensor([[0, 3, 5]]))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
