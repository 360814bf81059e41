# Source: https://github.com/WOW5678/CompNet/issues/2 (WOW5678/CompNet#2: "modified by an inplace operation: [torch.FloatTensor [1, 2, 2]], which is output 0 of AsStridedBackward0 ... Error detected in BmmBackward0" in the memory network)
# Unit kind: cross-class
# In the shape of a memory-augmented controller: the memory's read does a bmm with the
# memory matrix (saving it); the writer class erases and adds into the matrix in place.
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
        memory.M.mul_(1 - e).add_(a)  # culprit


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


ctrl = Controller(2, 2)
ctrl(torch.randn(3, 1, 2)).backward()
print("done")
