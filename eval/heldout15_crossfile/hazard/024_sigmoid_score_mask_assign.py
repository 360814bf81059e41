# Source: https://github.com/pytorch/pytorch/issues/9391 (b = a.sigmoid(); b[1] = 2 raises on backward: sigmoid saved its output, which the index assignment modified)
# Unit kind: cross-class
import torch
import torch.nn as nn

torch.manual_seed(0)


class Scorer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, 1)

    def forward(self, x):
        return torch.sigmoid(self.fc(x)).squeeze(-1)


class LowScoreFilter:
    def __init__(self, thresh):
        self.thresh = thresh

    def __call__(self, probs):
        probs[probs < self.thresh] = 0.0  # culprit
        return probs


scorer, keep = Scorer(4), LowScoreFilter(0.5)
probs = keep(scorer(torch.randn(10, 4)))
loss = -(probs + 1e-6).log().mean()
loss.backward()
print("ok", float(loss))
