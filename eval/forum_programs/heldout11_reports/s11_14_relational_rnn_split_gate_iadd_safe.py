# source: https://github.com/williamSYSU/TextGAN-PyTorch/pull/69
# Fixed relational memory gates: split outputs get their biases added out of place.
import torch
import torch.nn as nn

torch.manual_seed(0)


class RelationalMemory(nn.Module):
    def __init__(self, input_size=6, mem_size=8):
        super().__init__()
        self.mem_size = mem_size
        self.input_projector = nn.Linear(input_size, mem_size)
        self.attn = nn.Linear(mem_size, mem_size)
        self.input_gate_projector = nn.Linear(mem_size, 2 * mem_size)
        self.memory_gate_projector = nn.Linear(mem_size, 2 * mem_size)
        self.forget_bias = nn.Parameter(torch.tensor(1.0))
        self.input_bias = nn.Parameter(torch.tensor(0.0))

    def create_gates(self, inputs, memory):
        memory = torch.tanh(memory)
        gates = self.input_gate_projector(inputs) + self.memory_gate_projector(memory)
        input_gate, forget_gate = torch.split(gates, [self.mem_size, self.mem_size], dim=-1)
        input_gate = torch.sigmoid(input_gate + self.input_bias)
        forget_gate = torch.sigmoid(forget_gate + self.forget_bias)
        return input_gate, forget_gate

    def forward_step(self, x, memory):
        inputs = self.input_projector(x)
        next_memory = memory + torch.tanh(self.attn(inputs + memory))
        input_gate, forget_gate = self.create_gates(inputs, memory)
        return input_gate * torch.tanh(next_memory) + forget_gate * memory

    def forward(self, seq, memory):
        outs = []
        for t in range(seq.size(1)):
            memory = self.forward_step(seq[:, t], memory)
            outs.append(memory)
        return torch.stack(outs, dim=1), memory


rm = RelationalMemory()
opt = torch.optim.Adam(rm.parameters(), lr=1e-3)
seq = torch.randn(2, 3, 6)
mem0 = torch.zeros(2, 8)
out, _ = rm(seq, mem0)
loss = out.pow(2).mean()
opt.zero_grad()
loss.backward()
opt.step()
print("done")
