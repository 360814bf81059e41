"""A memory bank hands out its next slot from a method that indexes the learned memory under ``no_grad``;
the caller then overwrites the slot with grad mode on. The slot is a view, made under no_grad, of a
parameter: torch refuses the write at once."""
import torch
from torch import nn


class MemoryBank(nn.Module):
    def __init__(self, slots, dim):
        super().__init__()
        self.memory = nn.Parameter(torch.randn(slots, dim) * 0.1)
        self.cursor = 0

    def next_slot(self):
        with torch.no_grad():
            slot = self.memory[self.cursor]
        self.cursor = (self.cursor + 1) % self.memory.size(0)
        return slot

    def store(self, feature):
        slot = self.next_slot()
        with torch.no_grad():
            slot.copy_(feature.detach())  # expect: AGI004
        return (self.memory @ feature).softmax(-1)


def run():
    torch.manual_seed(0)
    bank = MemoryBank(4, 3)
    encoder = nn.Linear(3, 3)
    attention = bank.store(encoder(torch.randn(3)))
    attention[0].backward()
    return attention


if __name__ == "__main__":
    print(run())
