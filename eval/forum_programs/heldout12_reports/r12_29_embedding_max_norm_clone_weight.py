# source: PyTorch docs for torch.nn.Embedding, max_norm note: "a = embedding.weight.clone() @ W.t(); b = embedding(idx) @ W.t()"
# look-alike (the documented fix): the lookup renormalises weight in place, but the matmul saved a clone of the weight
import torch
import torch.nn as nn

torch.manual_seed(0)


class TiedScorer(nn.Module):
    def __init__(self, n=5, d=3, m=3):
        super().__init__()
        self.embedding = nn.Embedding(n, d, max_norm=1.0)
        self.W = nn.Parameter(torch.randn(m, d))
        with torch.no_grad():
            self.embedding.weight.mul_(2.0)

    def table_scores(self):
        return self.embedding.weight.clone() @ self.W.t()

    def lookup_scores(self, idx):
        return self.embedding(idx) @ self.W.t()

    def forward(self, idx):
        a = self.table_scores()
        b = self.lookup_scores(idx)
        return a.unsqueeze(0) + b.unsqueeze(1)


model = TiedScorer()
idx = torch.tensor([1, 2])
out = model(idx)
loss = out.sigmoid().prod()
loss.backward()
print(out.shape, loss.item(), model.embedding.weight.norm(dim=1))
