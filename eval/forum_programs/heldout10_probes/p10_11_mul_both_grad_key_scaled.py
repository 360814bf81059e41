# probe: q * k with both operands requiring grad saves both; scaling k in place afterwards makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def bilinear_score(q, k):
    return (q * k).sum(-1)


def main():
    q_proj = nn.Linear(6, 4)
    k_proj = nn.Linear(6, 4)
    x = torch.randn(5, 6)
    q = q_proj(x)
    k = k_proj(x)
    scores = bilinear_score(q, k)
    k.mul_(0.5)  # culprit
    loss = scores.mean() + k.sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
