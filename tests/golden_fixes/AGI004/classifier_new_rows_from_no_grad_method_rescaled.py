"""Class-incremental learning's weight aligning: the classifier hands out its old-class and new-class weight
rows from a method that slices them under ``no_grad``, and the training script rescales the new rows in
place afterwards, with grad on. The rows are views, made under no_grad, of a parameter: torch refuses the
write at once."""
import torch
from torch import nn
from torch.nn import functional as F


class IncrementalNet(nn.Module):
    def __init__(self, dim=8, old_classes=3, new_classes=2):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(dim, 16), nn.ReLU())
        self.fc = nn.Linear(16, old_classes + new_classes, bias=False)
        self.old_classes = old_classes

    def forward(self, x):
        return self.fc(self.backbone(x))

    def weight_groups(self):
        with torch.no_grad():
            return self.fc.weight[: self.old_classes], self.fc.weight[self.old_classes:]


def align_weights(model):
    old_rows, new_rows = model.weight_groups()
    gamma = old_rows.norm(dim=1).mean() / new_rows.norm(dim=1).mean()
    with torch.no_grad():
        new_rows.mul_(gamma)  # expect: AGI004
    return gamma


def run():
    torch.manual_seed(0)
    model = IncrementalNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(6, 8), torch.randint(0, 5, (6,))
    logits = model(x)
    F.cross_entropy(logits, y).backward()
    opt.step()
    align_weights(model)
    return logits


if __name__ == "__main__":
    print(run())
