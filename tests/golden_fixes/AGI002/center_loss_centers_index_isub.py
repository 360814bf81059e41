"""Center loss that moves the class centers by hand, indexed by the batch's labels, outside no_grad:
``self.centers[labels] -= ...`` is an ``index_put_`` on a parameter (a leaf that requires grad)."""
import torch
from torch import nn


class CenterLoss(nn.Module):
    def __init__(self, n_classes, dim, alpha=0.5):
        super().__init__()
        self.centers = nn.Parameter(torch.zeros(n_classes, dim))
        self.alpha = alpha

    def forward(self, features, labels):
        diff = self.centers[labels] - features.detach()
        loss = (features - self.centers[labels]).pow(2).sum(dim=1).mean()
        with torch.no_grad():
            self.centers[labels] -= self.alpha * diff  # expect: AGI002
        return loss


def run():
    torch.manual_seed(0)
    criterion = CenterLoss(3, 4)
    features = torch.randn(5, 4, requires_grad=True)
    labels = torch.tensor([0, 1, 2, 1, 0])
    loss = criterion(features, labels)
    loss.backward()
    return loss


if __name__ == "__main__":
    print(run())
