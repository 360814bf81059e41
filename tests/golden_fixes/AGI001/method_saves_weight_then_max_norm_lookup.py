"""A two-tower recommender (the max_norm note of nn.Embedding's docs, and the reports behind it): a
method scores the whole item catalogue with ``self.proj(self.item_emb.weight)``, so the projection saves
the embedding's weight for backward; the forward then looks items up in the same embedding, built with
``max_norm``, whose lookup first renormalises the rows it reads -- in place, in that saved weight."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoTowerScorer(nn.Module):
    def __init__(self, n_users=6, n_items=10, dim=4):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim, max_norm=1.0)
        self.proj = nn.Linear(dim, dim, bias=False)

    def catalogue(self):
        return self.proj(self.item_emb.weight.clone())

    def forward(self, users, items):
        every_item = self.catalogue()
        picked = self.proj(self.item_emb(items))  # expect: AGI001
        u = self.user_emb(users)
        return (u * picked).sum(-1), u @ every_item.t()


def run():
    torch.manual_seed(0)
    model = TwoTowerScorer()
    with torch.no_grad():
        model.item_emb.weight.mul_(3.0)  # norms above max_norm: the lookup rescales them
    users, items = torch.tensor([0, 1, 2, 3]), torch.tensor([2, 5, 7, 1])
    scores, all_scores = model(users, items)
    loss = F.cross_entropy(all_scores, items) - scores.sigmoid().log().mean()
    loss.backward()
    return loss


if __name__ == "__main__":
    print(run())
