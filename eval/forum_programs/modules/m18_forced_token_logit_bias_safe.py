# intended: safe
# classifier: confidence read with max(dim), then a bonus added to the forced class logit with logits[idx] += v
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, d, n_cls):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, n_cls))

    def forward(self, x, forced):
        logits = self.body(x)
        acc_pred = logits.detach().argmax(-1)
        conf = logits.max(dim=-1).values
        logits[torch.arange(x.size(0)), forced] += 5.0
        return logits, conf, acc_pred


def main():
    torch.manual_seed(0)
    clf = Classifier(4, 3)
    x = torch.randn(5, 4)
    y = torch.tensor([0, 1, 2, 1, 0])
    forced = torch.tensor([2, 2, 0, 1, 0])
    logits, conf, pred = clf(x, forced)
    loss = F.cross_entropy(logits, y) + 0.1 * conf.mean()
    loss.backward()
    print(pred.tolist(), loss.item())


if __name__ == "__main__":
    main()
