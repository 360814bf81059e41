# Source: aupendu/zero-restore#7 (the error persisted after toggling nn.ReLU inplace; the fix was
# "Add .clone() in SKConv Layer's forward pass"). SK branches all read the same input tensor.
# Unit kind: class -- a ModuleList comprehension of branch Sequentials, each opening with an
# in-place ReLU, applied one after another to the shared input inside SKConv.
import torch
import torch.nn as nn

torch.manual_seed(0)


class SKConv(nn.Module):
    def __init__(self, c, branches=2):
        super().__init__()
        self.convs = nn.ModuleList([
            nn.Sequential(nn.ReLU(inplace=True), nn.Conv2d(c, c, 3, padding=1 + i, dilation=1 + i))  # culprit
            for i in range(branches)])
        self.fc = nn.Linear(c, c * branches)

    def forward(self, x):
        feats = torch.stack([conv(x) for conv in self.convs], dim=1)
        s = feats.sum(1).mean((2, 3))
        a = torch.softmax(self.fc(s).view(x.shape[0], -1, x.shape[1]), dim=1)
        return (feats * a[:, :, :, None, None]).sum(1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.sk = SKConv(4)

    def forward(self, x):
        return self.sk(self.conv(x))


Net()(torch.randn(2, 3, 6, 6)).sum().backward()
print("done")
