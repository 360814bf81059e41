# source: https://github.com/williamSYSU/TextGAN-PyTorch/pull/69 ("Update relational_rnn_general.py")
# MLE pre-training step of a relational-memory (RMC) text generator with multi-head attention over memory slots.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RelationalMemory(nn.Module):
    def __init__(self, mem_slots, head_size, input_size, num_heads=2, forget_bias=1.0, input_bias=0.0):
        super().__init__()
        self.mem_slots, self.head_size, self.num_heads = mem_slots, head_size, num_heads
        self.mem_size = head_size * num_heads
        self.key_size = self.value_size = head_size
        self.qkv_size = 2 * self.key_size + self.value_size
        self.qkv_projector = nn.Linear(self.mem_size, self.qkv_size * num_heads)
        self.qkv_layernorm = nn.LayerNorm(self.qkv_size * num_heads)
        self.attention_mlp = nn.ModuleList([nn.Linear(self.mem_size, self.mem_size) for _ in range(2)])
        self.attended_memory_layernorm = nn.LayerNorm(self.mem_size)
        self.attended_memory_layernorm2 = nn.LayerNorm(self.mem_size)
        self.input_projector = nn.Linear(input_size, self.mem_size)
        self.input_gate_projector = nn.Linear(self.mem_size, 2 * self.mem_size)
        self.memory_gate_projector = nn.Linear(self.mem_size, 2 * self.mem_size)
        self.forget_bias = nn.Parameter(torch.tensor(forget_bias))
        self.input_bias = nn.Parameter(torch.tensor(input_bias))

    def initial_state(self, batch_size):
        init_state = torch.stack([torch.eye(self.mem_slots) for _ in range(batch_size)])
        pad = torch.zeros(batch_size, self.mem_slots, self.mem_size - self.mem_slots)
        return torch.cat([init_state, pad], -1)

    def multihead_attention(self, memory):
        qkv = self.qkv_layernorm(self.qkv_projector(memory))
        mem_slots = memory.shape[1]
        qkv_transpose = qkv.view(qkv.shape[0], mem_slots, self.num_heads, self.qkv_size).permute(0, 2, 1, 3)
        q, k, v = torch.split(qkv_transpose, [self.key_size, self.key_size, self.value_size], -1)
        # scale q with d_k, the dimensionality of the key vectors
        q *= (self.key_size ** -0.5)  # culprit
        weights = F.softmax(torch.matmul(q, k.permute(0, 1, 3, 2)), dim=-1)
        output = torch.matmul(weights, v).permute(0, 2, 1, 3).contiguous()
        return output.view(output.shape[0], output.shape[1], -1)

    def attend_over_memory(self, memory):
        attended_memory = self.multihead_attention(memory)
        memory = self.attended_memory_layernorm(memory + attended_memory)
        attention_mlp = memory
        for layer in self.attention_mlp:
            attention_mlp = F.relu(layer(attention_mlp))
        return self.attended_memory_layernorm2(memory + attention_mlp)

    def create_gates(self, inputs, memory):
        memory = torch.tanh(memory)
        gates = self.memory_gate_projector(memory) + self.input_gate_projector(inputs)
        input_gate, forget_gate = torch.split(gates, gates.shape[2] // 2, dim=2)
        return torch.sigmoid(input_gate + self.input_bias), torch.sigmoid(forget_gate + self.forget_bias)

    def forward_step(self, inputs, memory):
        inputs_reshape = self.input_projector(inputs).unsqueeze(1)
        memory_plus_input = torch.cat([memory, inputs_reshape], dim=1)
        next_memory = self.attend_over_memory(memory_plus_input)[:, :-1, :]
        input_gate, forget_gate = self.create_gates(inputs_reshape, memory)
        next_memory = input_gate * torch.tanh(next_memory)
        next_memory += forget_gate * memory
        return next_memory.view(next_memory.shape[0], -1), next_memory

    def forward(self, inputs, memory):
        memory = memory.detach()
        logits = []
        for idx_step in range(inputs.shape[1]):
            logit, memory = self.forward_step(inputs[:, idx_step], memory)
            logits.append(logit.unsqueeze(1))
        return torch.cat(logits, dim=1), memory


vocab, emb_dim, batch, seq_len = 30, 16, 4, 7
embeddings = nn.Embedding(vocab, emb_dim)
rmc = RelationalMemory(mem_slots=1, head_size=8, input_size=emb_dim, num_heads=2)
lstm2out = nn.Linear(rmc.mem_slots * rmc.mem_size, vocab)
params = list(embeddings.parameters()) + list(rmc.parameters()) + list(lstm2out.parameters())
gen_opt = torch.optim.Adam(params, lr=1e-3)

for epoch in range(2):
    samples = torch.randint(0, vocab, (batch, seq_len + 1))
    inp, target = samples[:, :-1], samples[:, 1:]
    hidden = rmc.initial_state(batch)
    out, hidden = rmc(embeddings(inp), hidden)
    loss = F.cross_entropy(lstm2out(out).reshape(-1, vocab), target.reshape(-1))
    gen_opt.zero_grad()
    loss.backward()
    gen_opt.step()
    print(f"epoch {epoch}: MLE loss {loss.item():.4f}")
