# source: http://discuss.pytorch.org/t/in-place-operation-and-resnet/10724
# ResidualUnitB: keep the identity and add in place into the BN output, which nothing saved.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ResidualUnitB(nn.Module):
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

        identity = x
        x = self.conv_1(x)
        x = self.bn_1(x)
        x += identity
        x = F.relu(x, inplace=True)
        return x


model = ResidualUnitB()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
inp = torch.randn(2, 3, 6, 6)
target = torch.randn(2, 8, 6, 6)
out = model(inp)
loss = F.mse_loss(out, target)
opt.zero_grad()
loss.backward()
opt.step()
print("done")
