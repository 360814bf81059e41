"""``max_norm=True`` is ``max_norm=1.0`` to torch: every lookup renormalises the rows it reads in place,
and the weight was saved by the matmul that scored all items first."""
import torch
from torch import nn


def run():
    torch.manual_seed(0)
    items = nn.Embedding(6, 3, max_norm=True)
    user_tower = nn.Linear(4, 3)
    query = user_tower(torch.randn(2, 4))
    scores = query @ items.weight.t().clone()
    picked = items(torch.tensor([1, 4]))  # expect: AGI001
    loss = scores.logsumexp(-1).mean() + picked.pow(2).mean()
    loss.backward()
    return loss


if __name__ == "__main__":
    print(run())
