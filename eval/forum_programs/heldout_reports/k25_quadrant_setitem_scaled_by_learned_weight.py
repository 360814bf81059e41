# source: https://github.com/pytorch/pytorch/issues/1321 (comment: x11[:,:,0:w/2,0:h/2] = x11[:,:,0:w/2,0:h/2] * xx1[0] raises, x11 = x11 * xx1[0] works)
import torch
import torch.nn as nn


class QuadrantGate(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = nn.Conv2d(ch, ch, 3, padding=1)
        self.gate = nn.Linear(ch, 4)

    def forward(self, x):
        x11 = self.conv(x)
        xx1 = torch.sigmoid(self.gate(x.mean((2, 3)))).mean(0)
        w_f, h_f = x11.shape[2], x11.shape[3]
        x11[:, :, 0:int(w_f / 2), 0:int(h_f / 2)] = x11[:, :, 0:int(w_f / 2), 0:int(h_f / 2)] * xx1[0]  # culprit
        x11[:, :, int(w_f / 2):, int(h_f / 2):] = x11[:, :, int(w_f / 2):, int(h_f / 2):] * xx1[3]  # culprit
        return x11


torch.manual_seed(0)
m = QuadrantGate(2)
x = torch.randn(1, 2, 4, 4)
out = m(x)
out.pow(2).sum().backward()
print(out.shape)
