"""A hand-written label-smoothing loss that negates the log-probabilities in place before weighting them:
``log_softmax`` saved its output for backward, and ``mul_(-1)`` overwrites it."""
import torch
import torch.nn.functional as F
from torch import nn


def smoothed_nll(logits, targets, smoothing=0.1):
    log_probs = F.log_softmax(logits, dim=-1)
    log_probs = log_probs.mul(-1.0)  # expect: AGI001
    classes = logits.shape[-1]
    weights = torch.full_like(log_probs, smoothing / (classes - 1))
    weights.scatter_(1, targets.unsqueeze(1), 1.0 - smoothing)
    return (weights * log_probs).sum(dim=-1).mean()


def run():
    torch.manual_seed(0)
    classifier = nn.Linear(6, 4)
    loss = smoothed_nll(classifier(torch.randn(5, 6)), torch.tensor([0, 1, 2, 3, 1]))
    loss.backward()
    return loss


if __name__ == "__main__":
    print(run())
