# intended: AGI001
# Instance discrimination with a memory bank (Wu et al. 2018). The bank is a buffer; forward
# scores features against it and then refreshes the batch's rows through a no_grad method,
# before backward. The matmul saved the bank as its second operand.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MemoryBank(nn.Module):
    def __init__(self, n, dim, momentum=0.5):
        super().__init__()
        self.register_buffer("memory", F.normalize(torch.randn(n, dim), dim=1))
        self.momentum = momentum

    def scores(self, feats, T=0.1):
        return feats @ self.memory.t() / T

    @torch.no_grad()
    def update(self, idx, feats):
        new = self.memory[idx] * self.momentum + feats.detach() * (1 - self.momentum)
        self.memory.index_copy_(0, idx, F.normalize(new, dim=1))  # culprit


def main():
    torch.manual_seed(0)
    n, dim = 32, 8
    encoder = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, dim))
    bank = MemoryBank(n, dim)
    data = torch.randn(n, 10)
    opt = torch.optim.SGD(encoder.parameters(), lr=0.03)
    idx = torch.randperm(n)[:6]
    feats = F.normalize(encoder(data[idx]), dim=1)
    logits = bank.scores(feats)
    loss = F.cross_entropy(logits, idx)
    bank.update(idx, feats)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
