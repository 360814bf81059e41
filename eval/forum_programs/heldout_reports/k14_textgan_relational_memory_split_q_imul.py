# source: https://github.com/williamSYSU/TextGAN-PyTorch/pull/69 (relational memory: q, k, v = torch.split(...); q *= key_size ** -0.5)
import torch
import torch.nn as nn
import torch.nn.functional as F


class RelationalMemory(nn.Module):
    def __init__(self, mem_slots, head_size, input_size, num_heads=2):
        super().__init__()
        self.mem_slots = mem_slots
        self.head_size = head_size
        self.num_heads = num_heads
        self.mem_size = head_size * num_heads
        self.key_size = head_size
        self.value_size = head_size
        self.qkv_size = 2 * self.key_size + self.value_size
        self.total_qkv_size = self.qkv_size * num_heads
        self.qkv_projector = nn.Linear(self.mem_size, self.total_qkv_size)
        self.qkv_layernorm = nn.LayerNorm([self.mem_slots + 1, self.total_qkv_size])
        self.input_projector = nn.Linear(input_size, self.mem_size)

    def multihead_attention(self, memory):
        qkv = self.qkv_projector(memory)
        qkv = self.qkv_layernorm(qkv)
        mem_slots = memory.shape[1]
        qkv_reshape = qkv.view(qkv.shape[0], mem_slots, self.num_heads, self.qkv_size)
        qkv_transpose = qkv_reshape.permute(0, 2, 1, 3)
        q, k, v = torch.split(qkv_transpose, [self.key_size, self.key_size, self.value_size], -1)
        q *= (self.key_size ** -0.5)  # culprit
        dot_product = torch.matmul(q, k.permute(0, 1, 3, 2))
        weights = F.softmax(dot_product, dim=-1)
        output = torch.matmul(weights, v)
        output_transpose = output.permute(0, 2, 1, 3).contiguous()
        return output_transpose.view((output_transpose.shape[0], output_transpose.shape[1], -1))

    def forward(self, inputs, memory):
        inputs = self.input_projector(inputs.view(inputs.shape[0], -1)).unsqueeze(1)
        memory_plus_input = torch.cat([memory, inputs], dim=1)
        next_memory = memory_plus_input + self.multihead_attention(memory_plus_input)
        return next_memory[:, :-1]


torch.manual_seed(0)
rm = RelationalMemory(mem_slots=2, head_size=4, input_size=6)
memory = torch.randn(3, 2, 8)
x = torch.randn(3, 6)
out = rm(x, memory)
out.sum().backward()
print(out.shape)
