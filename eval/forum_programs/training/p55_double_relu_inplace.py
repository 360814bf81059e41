# intended: AGI001
# Block with torch.relu followed by an nn.ReLU(inplace=True) module (double activation).
import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 6)
        self.act = nn.ReLU(inplace=True)
    def forward(self, x):
        h = torch.relu(self.fc(x))
        return self.act(h)  # culprit

def main():
    torch.manual_seed(0)
    b = Block()
    loss = b(torch.randn(3, 6)).sum()
    loss.backward()
    print(loss.item())

if __name__ == "__main__":
    main()
