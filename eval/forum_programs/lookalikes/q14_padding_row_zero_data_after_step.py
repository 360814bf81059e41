# intended: safe
# Text classifier with a bag-of-embeddings encoder. After each optimizer step the padding row
# and any row that grew too large are reset through .data, outside no_grad.
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class BagClassifier(nn.Module):
    def __init__(self, vocab, d, n_cls):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.fc = nn.Linear(d, n_cls)

    def forward(self, ids):
        e = self.emb(ids)
        keep = (ids != PAD).unsqueeze(-1).float()
        pooled = (e * keep).sum(1) / keep.sum(1).clamp(min=1)
        return self.fc(pooled)


def main():
    torch.manual_seed(0)
    model = BagClassifier(30, 8, 2)
    opt = torch.optim.Adagrad(model.parameters(), lr=0.5)
    for step in range(4):
        ids = torch.randint(0, 30, (6, 7))
        ids[:, 5:] = PAD
        y = torch.randint(0, 2, (6,))
        loss = F.cross_entropy(model(ids), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.emb.weight.data[PAD].zero_()
        norms = model.emb.weight.data.norm(dim=1, keepdim=True)
        model.emb.weight.data.div_(norms.clamp(min=3.0) / 3.0)
        print(step, round(loss.item(), 4), model.emb.weight[PAD].abs().sum().item())


if __name__ == "__main__":
    main()
