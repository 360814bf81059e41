# Source: https://github.com/WOW5678/CompNet/issues/2 (WOW5678/CompNet#2: the memory matrix read by bmm and then modified in place)
# Unit kind: cross-class
# Look-alike of hazard/021: the writer builds a new memory matrix and rebinds it, so the
# matrix an earlier read saved keeps its version.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Memory(nn.Module):
    def __init__(self, slots, width):
        super().__init__()
        self.init = nn.Parameter(torch.randn(1, slots, width) * 0.1)
        self.M = None

    def reset(self):
        self.M = self.init.clone()

    def read(self, weights):
        return torch.bmm(weights, self.M)


class MemoryWriter(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.erase = nn.Linear(width, width)
        self.add = nn.Linear(width, width)

    def forward(self, memory, h):
        e = torch.sigmoid(self.erase(h)).unsqueeze(1)
        a = torch.tanh(self.add(h)).unsqueeze(1)
        memory.M = memory.M * (1 - e) + a


class Controller(nn.Module):
    def __init__(self, slots, width):
        super().__init__()
        self.key = nn.Linear(width, slots)
        self.memory = Memory(slots, width)
        self.writer = MemoryWriter(width)

    def forward(self, seq):
        self.memory.reset()
        reads = []
        for h in seq:
            w = torch.softmax(self.key(h), dim=-1).unsqueeze(1)
            reads.append(self.memory.read(w).squeeze(1))
            self.writer(self.memory, h)
        return torch.stack(reads).sum()


Controller(2, 2)(torch.randn(3, 1, 2)).backward()
print("done")
