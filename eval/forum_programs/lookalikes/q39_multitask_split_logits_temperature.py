# intended: AGI003
# Multi-task classifier: one Linear produces all tasks' logits and a method splits them per
# task. The caller calibrates each task's logits in place by its temperature; the pieces
# are outputs of split, a multi-view op.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTaskHead(nn.Module):
    def __init__(self, d, n_classes):
        super().__init__()
        self.n_classes = list(n_classes)
        self.trunk = nn.Sequential(nn.Linear(d, 16), nn.ReLU())
        self.all_logits = nn.Linear(16, sum(n_classes))
        self.temps = [1.0, 2.0, 0.5]

    def task_logits(self, x):
        return self.all_logits(self.trunk(x)).split(self.n_classes, dim=-1)

    def forward(self, x):
        outs = self.task_logits(x)
        for logits, T in zip(outs, self.temps):
            logits /= T  # culprit
        return outs


def main():
    torch.manual_seed(0)
    model = MultiTaskHead(7, (3, 4, 2))
    x = torch.randn(8, 7)
    ys = [torch.randint(0, n, (8,)) for n in (3, 4, 2)]
    outs = model(x)
    loss = sum(F.cross_entropy(o, y) for o, y in zip(outs, ys))
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
