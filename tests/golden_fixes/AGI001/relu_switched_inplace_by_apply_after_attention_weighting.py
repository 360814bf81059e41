"""A PointNet-style feature block: the training script switches every ReLU in place with
``model.apply(inplace_relu)`` (a memory trick from the PointNet++ code base, testing the class name).
The block weights its normalised features by an attention over points, then applies its ReLU to the
same features: the product saved them for backward, and the now in-place ReLU overwrites them."""
import torch
from torch import nn


def inplace_relu(m):
    classname = m.__class__.__name__
    if classname.find("ReLU") != -1:
        m.inplace = True


class PointFeatures(nn.Module):
    def __init__(self, channels=6, hidden=8):
        super().__init__()
        self.conv1 = nn.Conv1d(channels, hidden, 1)
        self.bn1 = nn.BatchNorm1d(hidden)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv1d(hidden, hidden, 1)

    def forward(self, points):
        h = self.bn1(self.conv1(points))
        attn = torch.softmax(h.mean(dim=1, keepdim=True), dim=-1)
        weighted = h * attn
        h = self.relu(h.clone())  # expect: AGI001
        return self.conv2(h) + weighted


def run():
    torch.manual_seed(0)
    model = PointFeatures()
    model.apply(inplace_relu)
    out = model(torch.randn(2, 6, 10))
    out.pow(2).mean().backward()
    return out


if __name__ == "__main__":
    print(run())
