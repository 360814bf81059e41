# source: http://discuss.pytorch.org/t/in-place-operation-and-resnet/10724
# ResidualUnitA: `x += residual` overwrites the in-place-ReLU output that conv_1 saved for backward.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ResidualUnitA(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_0 = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn_0 = nn.BatchNorm2d(8)
        self.conv_1 = nn.Conv2d(8, 8, 3, padding=1, bias=False)
        self.bn_1 = nn.BatchNorm2d(8)

    def forward(self, x):
        x = self.conv_0(x)
        x = self.bn_0(x)
        x = F.relu(x, inplace=True)

        residual = self.conv_1(x)
        residual = self.bn_1(residual)
        x += residual  # culprit
        x = F.relu(x, inplace=True)
        return x


model = ResidualUnitA()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
inp = torch.randn(2, 3, 6, 6)
target = torch.randn(2, 8, 6, 6)
out = model(inp)
loss = F.mse_loss(out, target)
opt.zero_grad()
loss.backward()
opt.step()
print("done")
