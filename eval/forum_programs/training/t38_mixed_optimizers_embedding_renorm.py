# intended: safe
# Recommender: SparseAdam for the sparse embedding tables, Adam for the MLP;
# padding row re-zeroed and rows renormalised in place under no_grad after the steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class Rec(nn.Module):
    def __init__(self, n_users=10, n_items=15, dim=6):
        super().__init__()
        self.user = nn.Embedding(n_users, dim, sparse=True)
        self.item = nn.Embedding(n_items, dim, padding_idx=PAD, sparse=True)
        self.mlp = nn.Sequential(nn.Linear(2 * dim, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, u, i):
        return self.mlp(torch.cat([self.user(u), self.item(i)], dim=-1)).squeeze(-1)


def main():
    torch.manual_seed(0)
    model = Rec()
    sparse_opt = torch.optim.SparseAdam(list(model.user.parameters()) + list(model.item.parameters()), lr=1e-2)
    dense_opt = torch.optim.Adam(model.mlp.parameters(), lr=1e-3)
    u, i, r = torch.randint(0, 10, (32,)), torch.randint(0, 15, (32,)), torch.rand(32)
    for step in range(3):
        loss = F.binary_cross_entropy_with_logits(model(u, i), r)
        sparse_opt.zero_grad()
        dense_opt.zero_grad()
        loss.backward()
        sparse_opt.step()
        dense_opt.step()
        with torch.no_grad():
            model.item.weight[PAD].zero_()
            w = model.user.weight
            w.div_(w.norm(dim=1, keepdim=True).clamp(min=1.0))
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
