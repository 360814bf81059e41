# Gradient checkpointing (non-reentrant): the caller normalises the block input in place after the
# checkpointed call, before backward; the checkpoint saved the input for recomputation
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


torch.manual_seed(0)
stem = nn.Linear(4, 4)
block = Block(4)
h = stem(torch.randn(3, 4))
out = checkpoint(block, h, use_reentrant=False)
h.div_(h.norm(dim=-1, keepdim=True))  # culprit
loss = (out + h).pow(2).mean()
loss.backward()
print(stem.weight.grad.norm().item())
