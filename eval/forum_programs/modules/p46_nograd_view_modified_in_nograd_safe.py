# memory bank written correctly: the view is created and modified under no_grad
import torch
import torch.nn as nn


class MemoryBank(nn.Module):
    def __init__(self, n, d):
        super().__init__()
        self.mem = nn.Parameter(torch.randn(n, d) * 0.1)
        self.ptr = 0

    @torch.no_grad()
    def write(self, feat):
        s = self.mem[self.ptr]
        s.copy_(feat)
        self.ptr = (self.ptr + 1) % self.mem.size(0)

    def forward(self, feat):
        return (self.mem @ feat).softmax(-1)


def main():
    torch.manual_seed(0)
    bank = MemoryBank(4, 3)
    enc = nn.Linear(3, 3)
    f = enc(torch.randn(3))
    bank.write(f)
    att = bank(f)
    att[0].backward()
    print(bank.mem.grad)


if __name__ == "__main__":
    main()
