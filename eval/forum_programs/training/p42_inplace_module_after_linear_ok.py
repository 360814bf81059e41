# intended: safe
# Residual MLP block: ReLU(inplace=True) right after BatchNorm/Linear, F.dropout(inplace=True) after linear.
import torch
import torch.nn as nn
import torch.nn.functional as F

class ResBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = nn.Linear(d, d)
        self.bn = nn.BatchNorm1d(d)
        self.relu = nn.ReLU(inplace=True)
        self.fc2 = nn.Linear(d, d)
    def forward(self, x):
        h = self.relu(self.bn(self.fc1(x)))
        h = self.fc2(h)
        h = F.dropout(h, p=0.1, training=self.training, inplace=True)
        h += x
        return self.relu(h)

def main():
    torch.manual_seed(0)
    block = ResBlock(8)
    opt = torch.optim.SGD(block.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=3)
    x = torch.randn(16, 8)
    for _ in range(3):
        loss = block(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        print(loss.item(), sched.get_last_lr())

if __name__ == "__main__":
    main()
