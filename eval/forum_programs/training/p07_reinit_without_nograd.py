# intended: AGI002
# Re-initialising the last layer when the loss plateaus.
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
        self.head = nn.Linear(32, 3)
    def forward(self, x):
        return self.head(self.body(x))

def reset_head(model):
    model.head.weight.normal_(0.0, 0.01)  # culprit
    model.head.bias.zero_()

def main():
    torch.manual_seed(0)
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(32, 10), torch.randint(0, 3, (32,))
    best = float("inf")
    for epoch in range(6):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if epoch == 3:
            reset_head(model)
        best = min(best, loss.item())
    print(best)

if __name__ == "__main__":
    main()
