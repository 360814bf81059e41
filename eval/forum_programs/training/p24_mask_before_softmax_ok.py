# intended: safe
# Masked attention pooling: masked_fill_ on raw scores before softmax.
import torch
import torch.nn as nn

def masked_softmax(scores, mask):
    scores = scores.clone()
    scores[~mask] = float("-inf")
    return torch.softmax(scores, dim=-1)

def main():
    torch.manual_seed(0)
    scorer = nn.Linear(8, 1)
    x = torch.randn(4, 6, 8)
    lengths = torch.tensor([6, 3, 5, 2])
    mask = torch.arange(6)[None, :] < lengths[:, None]
    s = scorer(x).squeeze(-1)
    s.masked_fill_(~mask, -1e9)
    attn = masked_softmax(s, mask)
    pooled = (attn.unsqueeze(-1) * x).sum(1)
    loss = pooled.pow(2).mean()
    loss.backward()
    print(loss.item())

if __name__ == "__main__":
    main()
