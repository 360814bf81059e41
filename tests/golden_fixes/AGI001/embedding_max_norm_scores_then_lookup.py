"""A recommender with a norm-capped item table: the forward scores every item against the user (the
matmul saves the table), then looks up the clicked items, and that lookup renormalises the table's rows
in place (``max_norm``). The scores' backward then finds the table changed."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Recommender(nn.Module):
    def __init__(self, items=20, dim=8):
        super().__init__()
        self.items = nn.Embedding(items, dim, max_norm=1.0)
        self.user = nn.Linear(4, dim)

    def forward(self, user_features, clicked):
        u = self.user(user_features)
        scores = u @ self.items.weight.t().clone()
        clicked_vectors = self.items(clicked)  # expect: AGI001
        affinity = (u.unsqueeze(1) * clicked_vectors).sum(-1)
        return scores, affinity


def run():
    torch.manual_seed(0)
    model = Recommender()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    user_features = torch.randn(6, 4)
    clicked = torch.randint(0, 20, (6, 3))
    targets = torch.randint(0, 20, (6,))
    scores, affinity = model(user_features, clicked)
    loss = F.cross_entropy(scores, targets) - affinity.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return scores


if __name__ == "__main__":
    print(run())
