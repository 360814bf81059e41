# source: memory-augmented network (NTM / DNC-style least-used slot write)
# description: the least-used slot is selected as a view inside torch.no_grad and then written in-place with grad mode enabled
import torch
import torch.nn as nn


class SlotMemory(nn.Module):
    def __init__(self, n_slots, dim):
        super().__init__()
        self.mem_init = nn.Parameter(torch.randn(n_slots, dim) * 0.1)
        self.write_proj = nn.Linear(dim, dim)
        self.erase_proj = nn.Linear(dim, dim)
        self.read_query = nn.Linear(dim, dim)

    def init_memory(self, batch):
        return self.mem_init.unsqueeze(0).repeat(batch, 1, 1)

    def write(self, memory, usage, x, b):
        with torch.no_grad():
            idx = int(usage[b].argmin())
            slot = memory[b, idx]
        erase = torch.sigmoid(self.erase_proj(x[b]))
        slot.mul_(1 - erase)  # culprit
        usage[b, idx] += 1
        return memory

    def read(self, memory, x):
        w = torch.softmax(torch.einsum("bd,bnd->bn", self.read_query(x), memory), dim=-1)
        return torch.einsum("bn,bnd->bd", w, memory)

    def forward(self, xs):
        memory = self.init_memory(xs.shape[1])
        usage = torch.zeros(xs.shape[1], memory.shape[1])
        reads = []
        for x in xs:
            for b in range(x.shape[0]):
                memory = self.write(memory, usage, x, b)
            reads.append(self.read(memory, x))
        return torch.stack(reads)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SlotMemory(4, 6)
    xs = torch.randn(3, 2, 6)
    loss = model(xs).pow(2).mean()
    loss.backward()
