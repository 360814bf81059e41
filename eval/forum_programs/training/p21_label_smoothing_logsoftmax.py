# intended: AGI001
# Label smoothing loss: zeroing out the padding column of log-probs in place.
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0

def smoothed_nll(logits, target, eps=0.1):
    K = logits.size(-1)
    logp = F.log_softmax(logits, dim=-1)
    logp[:, PAD] = 0.0  # culprit
    true_dist = torch.full_like(logp, eps / (K - 2))
    true_dist.scatter_(1, target.unsqueeze(1), 1 - eps)
    true_dist[:, PAD] = 0
    return -(true_dist * logp).sum(-1).mean()

def main():
    torch.manual_seed(0)
    model = nn.Linear(12, 7)
    x = torch.randn(10, 12)
    target = torch.randint(1, 7, (10,))
    loss = smoothed_nll(model(x), target)
    loss.backward()
    print(loss.item())

if __name__ == "__main__":
    main()
