# probe: relu saves its output; F.dropout(..., inplace=True) in training mode overwrites it
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        h = F.dropout(h, p=0.2, training=self.training, inplace=True)  # culprit
        return self.fc2(h)


def main():
    model = MLP()
    x = torch.randn(8, 10)
    y = torch.randint(0, 3, (8,))
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
