# source: https://github.com/orion-orion/FedDCSR/issues/3 (SelfAttention masks its input with *=; mu and logvar encoders share it)
import torch
import torch.nn as nn

HIDDEN, HEADS, BLOCKS, NUM_ITEMS = 8, 2, 2, 10


class PointWiseFeedForward(nn.Module):
    def __init__(self, hidden_units, dropout_rate):
        super().__init__()
        self.conv1 = nn.Conv1d(hidden_units, hidden_units, kernel_size=1)
        self.dropout1 = nn.Dropout(p=dropout_rate)
        self.conv2 = nn.Conv1d(hidden_units, hidden_units, kernel_size=1)
        self.dropout2 = nn.Dropout(p=dropout_rate)

    def forward(self, inputs):
        outputs = torch.relu(self.dropout1(self.conv1(inputs.transpose(-1, -2))))
        outputs = self.dropout2(self.conv2(outputs))
        outputs = outputs.transpose(-1, -2)
        outputs += inputs
        return outputs


class SelfAttention(nn.Module):
    def __init__(self, num_items):
        super().__init__()
        self.num_items = num_items
        self.attention_layernorms = nn.ModuleList()
        self.attention_layers = nn.ModuleList()
        self.forward_layernorms = nn.ModuleList()
        self.forward_layers = nn.ModuleList()
        self.last_layernorm = nn.LayerNorm(HIDDEN, eps=1e-8)
        for _ in range(BLOCKS):
            self.attention_layernorms.append(nn.LayerNorm(HIDDEN, eps=1e-8))
            self.attention_layers.append(nn.MultiheadAttention(HIDDEN, HEADS, 0.0))
            self.forward_layernorms.append(nn.LayerNorm(HIDDEN, eps=1e-8))
            self.forward_layers.append(PointWiseFeedForward(HIDDEN, 0.0))

    def forward(self, seqs, seqs_data):
        timeline_mask = torch.BoolTensor(seqs_data.cpu() == self.num_items)
        seqs *= ~timeline_mask.unsqueeze(-1)  # culprit
        tl = seqs.shape[1]
        attention_mask = ~torch.tril(torch.ones((tl, tl), dtype=torch.bool))
        for i in range(len(self.attention_layers)):
            seqs = torch.transpose(seqs, 0, 1)
            Q = self.attention_layernorms[i](seqs)
            mha_outputs, _ = self.attention_layers[i](Q, seqs, seqs, attn_mask=attention_mask)
            seqs = Q + mha_outputs
            seqs = torch.transpose(seqs, 0, 1)
            seqs = self.forward_layernorms[i](seqs)
            seqs = self.forward_layers[i](seqs)
            seqs *= ~timeline_mask.unsqueeze(-1)
        return self.last_layernorm(seqs)


class Encoder(nn.Module):
    def __init__(self, num_items):
        super().__init__()
        self.encoder_mu = SelfAttention(num_items)
        self.encoder_logvar = SelfAttention(num_items)

    def forward(self, seqs, seqs_data):
        mu = self.encoder_mu(seqs, seqs_data)
        logvar = self.encoder_logvar(seqs, seqs_data)
        return mu, logvar


class VGSAN(nn.Module):
    def __init__(self, num_items, max_len):
        super().__init__()
        self.item_emb = nn.Embedding(num_items + 1, HIDDEN, padding_idx=num_items)
        self.pos_emb = nn.Embedding(max_len, HIDDEN)
        self.encoder = Encoder(num_items)
        self.linear = nn.Linear(HIDDEN, num_items)
        self.LayerNorm = nn.LayerNorm(HIDDEN, eps=1e-12)
        self.dropout = nn.Dropout(0.3)

    def add_position_embedding(self, seqs, seq_embeddings):
        position_ids = torch.arange(seqs.size(1), dtype=torch.long).unsqueeze(0).expand_as(seqs)
        seq_embeddings += self.pos_emb(position_ids)
        seq_embeddings = self.LayerNorm(seq_embeddings)
        return self.dropout(seq_embeddings)

    def forward(self, seqs):
        seqs_emb = self.item_emb(seqs)
        seqs_emb *= self.item_emb.embedding_dim ** 0.5
        seqs_emb = self.add_position_embedding(seqs, seqs_emb)
        mu, logvar = self.encoder(seqs_emb, seqs)
        z = mu + torch.exp(0.5 * logvar) * torch.randn_like(mu)
        return self.linear(z), mu, logvar


torch.manual_seed(0)
model = VGSAN(NUM_ITEMS, 5)
seqs = torch.tensor([[10, 10, 3, 4, 5], [1, 2, 3, 4, 5]])
result, mu, logvar = model(seqs)
kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
loss = result.logsumexp(-1).mean() + 0.01 * kld
loss.backward()
print(loss.item())
