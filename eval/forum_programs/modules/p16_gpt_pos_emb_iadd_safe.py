# GPT-style embedding: token embedding + positional embedding added in-place
import torch
import torch.nn as nn


class TinyGPT(nn.Module):
    def __init__(self, vocab, d, block):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.zeros(1, block, d))
        self.drop = nn.Dropout(0.1)
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        T = idx.size(1)
        x = self.tok(idx)
        x += self.pos[:, :T]
        x = self.drop(x)
        x = self.ln(x)
        x += 0.5  # shift after norm, still fine
        return self.head(x)


def main():
    torch.manual_seed(0)
    m = TinyGPT(11, 8, 6)
    idx = torch.randint(0, 11, (2, 6))
    logits = m(idx)
    loss = nn.functional.cross_entropy(logits.view(-1, 11), idx.view(-1))
    loss.backward()
    print(loss.item(), m.pos.grad.abs().sum().item())


if __name__ == "__main__":
    main()
