# probe: a Linear layer whose input requires grad saves its weight; a no_grad weight-decay step before backward makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


class TwoLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def decay_weights(layer, lr):
    with torch.no_grad():
        layer.weight.mul_(1.0 - lr)  # culprit


def main():
    model = TwoLayer()
    x = torch.randn(5, 6)
    y = torch.randn(5, 2)
    loss = (model(x) - y).pow(2).mean()
    decay_weights(model.fc2, 0.01)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
