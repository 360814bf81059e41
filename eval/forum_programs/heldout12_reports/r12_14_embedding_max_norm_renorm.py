# source: PyTorch docs for torch.nn.Embedding (max_norm note: "Embedding's forward method will modify the weight tensor in-place ... clone weight before performing differentiable operations"), and issues reporting the error in two-tower recommenders
# item_emb.weight is saved by the projection of the full item table; the max_norm lookup renormalises rows of that weight in place
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TwoTowerScorer(nn.Module):
    def __init__(self, n_users=6, n_items=10, dim=4):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim, max_norm=1.0)
        with torch.no_grad():
            self.item_emb.weight.mul_(3.0)  # start with norms above max_norm
        self.proj = nn.Linear(dim, dim, bias=False)

    def all_item_vectors(self):
        return self.proj(self.item_emb.weight)

    def forward(self, users, pos_items):
        catalogue = self.all_item_vectors()
        pos = self.proj(self.item_emb(pos_items))  # culprit
        u = self.user_emb(users)
        pos_scores = (u * pos).sum(-1)
        all_scores = u @ catalogue.t()
        return pos_scores, all_scores


model = TwoTowerScorer()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
users = torch.tensor([0, 1, 2, 3])
items = torch.tensor([2, 5, 7, 1])
for step in range(2):
    opt.zero_grad()
    pos_scores, all_scores = model(users, items)
    loss = F.cross_entropy(all_scores, items) - pos_scores.sigmoid().log().mean()
    loss.backward()
    opt.step()
    print(step, loss.item())
