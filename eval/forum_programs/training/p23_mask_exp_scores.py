# intended: AGI001
# Hand-written masked softmax: zeroing masked positions after exp.
import torch
import torch.nn as nn

def masked_softmax(scores, mask):
    e = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    e[~mask] = 0.0  # culprit
    return e / e.sum(dim=-1, keepdim=True)

def main():
    torch.manual_seed(0)
    scorer = nn.Linear(8, 1)
    x = torch.randn(4, 6, 8)
    lengths = torch.tensor([6, 3, 5, 2])
    mask = torch.arange(6)[None, :] < lengths[:, None]
    attn = masked_softmax(scorer(x).squeeze(-1), mask)
    pooled = (attn.unsqueeze(-1) * x).sum(1)
    loss = pooled.pow(2).mean()
    loss.backward()
    print(loss.item())

if __name__ == "__main__":
    main()
