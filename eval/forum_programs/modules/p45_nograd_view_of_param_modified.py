# memory bank: slot view grabbed under no_grad, later overwritten with grad enabled
import torch
import torch.nn as nn


class MemoryBank(nn.Module):
    def __init__(self, n, d):
        super().__init__()
        self.mem = nn.Parameter(torch.randn(n, d) * 0.1)
        self.ptr = 0

    def slot(self):
        with torch.no_grad():
            s = self.mem[self.ptr]
        self.ptr = (self.ptr + 1) % self.mem.size(0)
        return s

    def write(self, feat):
        s = self.slot()
        s.copy_(feat.detach())  # culprit
        return (self.mem @ feat).softmax(-1)


def main():
    torch.manual_seed(0)
    bank = MemoryBank(4, 3)
    enc = nn.Linear(3, 3)
    att = bank.write(enc(torch.randn(3)))
    att[0].backward()
    print(bank.mem.grad)


if __name__ == "__main__":
    main()
