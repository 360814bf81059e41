# probe: embedding saves only the token indices, so updating the embedding table under no_grad before backward is fine
import torch
import torch.nn as nn

torch.manual_seed(0)


class BagOfWords(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)

    def forward(self, tokens):
        return self.emb(tokens).mean(1)


def main():
    model = BagOfWords(10, 4)
    tokens = torch.randint(0, 10, (3, 5))
    out = model(tokens)
    with torch.no_grad():
        model.emb.weight.mul_(0.99)
    loss = out.pow(2).sum()
    loss.backward()
    print("grad", model.emb.weight.grad.norm().item())


if __name__ == "__main__":
    main()
