# intended: AGI001
# Gated block: nn.Hardtanh(inplace=True) applied to a sigmoid gate.
import torch
import torch.nn as nn

class GatedBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.gate = nn.Linear(d, d)
        self.clip = nn.Hardtanh(0.05, 0.95, inplace=True)
    def forward(self, x):
        g = torch.sigmoid(self.gate(x))
        g = self.clip(g)  # culprit
        return g * self.lin(x)

def main():
    torch.manual_seed(0)
    block = GatedBlock(8)
    opt = torch.optim.Adam(block.parameters(), lr=1e-3)
    x = torch.randn(4, 8)
    loss = block(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())

if __name__ == "__main__":
    main()
