# intended: AGI001
# hand-written batch standardisation: std taken first, then the mean subtracted in place
import torch
import torch.nn as nn


def batch_standardize(x, eps=1e-5):
    mean = x.mean(0, keepdim=True)
    std = x.std(0, keepdim=True)
    x -= mean  # culprit
    return x / (std + eps)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 1)

    def forward(self, x):
        h = batch_standardize(self.fc1(x))
        return self.fc2(torch.relu(h))


def main():
    torch.manual_seed(0)
    mlp = MLP()
    x, y = torch.randn(6, 4), torch.randn(6, 1)
    loss = nn.functional.mse_loss(mlp(x), y)
    loss.backward()
    print(mlp.fc1.weight.grad.norm().item())


if __name__ == "__main__":
    main()
