# source: StackOverflow question on a hand-written LayerNorm ("x -= mean; x /= std" style) failing with "one of the variables needed for gradient computation has been modified by an inplace operation"
# x.std() saves the centred x for backward; dividing x in place afterwards bumps that saved tensor
import torch
import torch.nn as nn

torch.manual_seed(0)


class ManualLayerNorm(nn.Module):
    def __init__(self, features, eps=1e-5):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(features))
        self.beta = nn.Parameter(torch.zeros(features))
        self.eps = eps

    def forward(self, x):
        x = x - x.mean(dim=-1, keepdim=True)
        std = x.std(dim=-1, keepdim=True, unbiased=False)
        x /= std + self.eps  # culprit
        return self.gamma * x + self.beta


class FeedForward(nn.Module):
    def __init__(self, d=8, hidden=16):
        super().__init__()
        self.norm = ManualLayerNorm(d)
        self.fc1 = nn.Linear(d, hidden)
        self.fc2 = nn.Linear(hidden, d)

    def forward(self, x):
        return x + self.fc2(torch.relu(self.fc1(self.norm(x))))


model = nn.Sequential(FeedForward(), FeedForward(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x, y = torch.randn(6, 8), torch.randn(6, 1)
for epoch in range(2):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print(epoch, loss.item())
