# Logging: attention maps are detached, moved to numpy and thresholded in place there
import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qk = nn.Linear(d, 2 * d)
        self.maps = []

    def forward(self, x):
        q, k = self.qk(x).chunk(2, -1)
        a = torch.softmax(q @ k.transpose(1, 2), dim=-1)
        arr = a.detach().cpu().numpy()
        arr[arr < 0.2] = 0.0
        arr *= 10
        self.maps.append(arr)
        return a @ x


torch.manual_seed(0)
m = Attn(4)
out = m(torch.randn(2, 3, 4))
out.sum().backward()
print(m.qk.weight.grad.norm(), m.maps[0].shape)
