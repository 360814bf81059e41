"""Ghost-batch centering in a model's forward: the embedding output is cut into micro-batches with
``chunk`` and each is centred in place in a loop. The chunks are views of one tensor that requires grad,
and torch refuses to modify outputs of chunk/split/unbind in place at once."""
import torch
from torch import nn
import torch.nn.functional as F


class GhostCentredClassifier(nn.Module):
    def __init__(self, vocab=30, dim=8, classes=3, ghost=4):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.fc = nn.Linear(dim, classes)
        self.ghost = ghost

    def forward(self, tokens):
        z = self.emb(tokens)
        for part in z.chunk(self.ghost):
            part = part - part.mean(0, keepdim=True)  # expect: AGI003
        return self.fc(z)


def run():
    torch.manual_seed(0)
    model = GhostCentredClassifier()
    tokens = torch.randint(0, 30, (16, 5))
    labels = torch.randint(0, 3, (16,))
    loss = F.cross_entropy(model(tokens), labels)
    loss.backward()
    return loss


if __name__ == "__main__":
    print(run())
