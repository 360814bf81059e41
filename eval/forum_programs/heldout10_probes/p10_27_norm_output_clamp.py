# probe: norm saves its output; clamping the norm in place before dividing by it makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def l2_normalize(v, eps=1e-6):
    n = v.norm(dim=-1, keepdim=True)
    n.clamp_(min=eps)  # culprit
    return v / n


def main():
    fc = nn.Linear(5, 4)
    x = torch.randn(3, 5)
    emb = l2_normalize(fc(x))
    loss = (emb @ emb.t()).sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
