# Output post-processing chosen from a dict of functions by config name; the chosen one clips the
# exponentiated scale in place
import torch
import torch.nn as nn


def clip_(t):
    return t.clamp_(max=3.0)  # culprit


def identity(t):
    return t


POSTPROC = {"clip": clip_, "none": identity}


class ScaleHead(nn.Module):
    def __init__(self, d, post="clip"):
        super().__init__()
        self.fc = nn.Linear(d, 1)
        self.post = POSTPROC[post]

    def forward(self, x):
        return self.post(torch.exp(self.fc(x)))


torch.manual_seed(0)
head = ScaleHead(4)
scale = head(torch.randn(6, 4))
nll = (scale.log() + 1.0 / scale).mean()
nll.backward()
print(head.fc.weight.grad.norm().item())
