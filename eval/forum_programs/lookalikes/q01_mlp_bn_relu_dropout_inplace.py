# intended: safe
# Tabular MLP: relu(inplace) right after BatchNorm1d, dropout(inplace) right after a Linear.
# BatchNorm does not need its output for backward and Linear only saves its input.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TabularMLP(nn.Module):
    def __init__(self, n_in, n_hidden, n_out, p=0.2):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.bn1 = nn.BatchNorm1d(n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_hidden)
        self.bn2 = nn.BatchNorm1d(n_hidden)
        self.head = nn.Linear(n_hidden, n_out)
        self.p = p

    def forward(self, x):
        h = self.bn1(self.fc1(x))
        F.relu(h, inplace=True)
        h = self.fc2(h)
        F.dropout(h, self.p, self.training, inplace=True)
        h = self.bn2(h)
        h = F.relu(h, inplace=True)
        return self.head(h)


def main():
    torch.manual_seed(0)
    model = TabularMLP(10, 32, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = torch.randn(64, 10)
    y = torch.randint(0, 3, (64,))
    for epoch in range(5):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
