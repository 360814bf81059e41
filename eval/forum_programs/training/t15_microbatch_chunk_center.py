# intended: AGI003
# Per-micro-batch centering of the embedding output (ghost-batch style), then a classifier.
import torch
from torch import nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, vocab=30, dim=8, n_cls=3, ghost=4):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.fc = nn.Linear(dim, n_cls)
        self.ghost = ghost

    def forward(self, tokens):
        z = self.emb(tokens)
        for part in z.chunk(self.ghost):
            part -= part.mean(0, keepdim=True)  # culprit
        return self.fc(z)


def main():
    torch.manual_seed(0)
    model = Model()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    tokens = torch.randint(0, 30, (16, 5))
    y = torch.randint(0, 3, (16,))
    loss = F.cross_entropy(model(tokens), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
