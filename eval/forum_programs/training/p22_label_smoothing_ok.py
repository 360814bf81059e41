# intended: safe
# Label smoothing: all in-place edits go to the target distribution, not to log-probs.
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0

def smoothed_nll(logits, target, eps=0.1):
    K = logits.size(-1)
    logp = F.log_softmax(logits, dim=-1)
    true_dist = torch.zeros_like(logp)
    true_dist.fill_(eps / (K - 2))
    true_dist.scatter_(1, target.unsqueeze(1), 1 - eps)
    true_dist[:, PAD] = 0
    mask = target == PAD
    true_dist[mask] = 0.0
    return -(true_dist * logp).sum(-1).mean()

def main():
    torch.manual_seed(0)
    model = nn.Linear(12, 7)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x = torch.randn(10, 12)
    target = torch.randint(0, 7, (10,))
    for _ in range(3):
        loss = smoothed_nll(model(x), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(loss.item())

if __name__ == "__main__":
    main()
