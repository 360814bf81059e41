# source: HuggingFace transformers modeling_bert.py (BertEmbeddings / BertSelfAttention / MLM head)
# Two-layer BERT-style encoder trained with a masked-language-modelling loss on random token ids.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class BertEmbeddings(nn.Module):
    def __init__(self, vocab, hidden, max_pos=64, type_vocab=2, dropout=0.1):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_pos, hidden)
        self.token_type_embeddings = nn.Embedding(type_vocab, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=1e-12)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("position_ids", torch.arange(max_pos).expand((1, -1)), persistent=False)

    def forward(self, input_ids, token_type_ids):
        seq_length = input_ids.size(1)
        embeddings = self.word_embeddings(input_ids)
        embeddings += self.token_type_embeddings(token_type_ids)
        embeddings += self.position_embeddings(self.position_ids[:, :seq_length])
        return self.dropout(self.LayerNorm(embeddings))


class BertSelfAttention(nn.Module):
    def __init__(self, hidden, heads, dropout=0.1):
        super().__init__()
        self.num_attention_heads = heads
        self.attention_head_size = hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.dropout = nn.Dropout(dropout)

    def transpose_for_scores(self, x):
        new_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        return x.view(new_shape).permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask, head_mask=None):
        q = self.transpose_for_scores(self.query(hidden_states))
        k = self.transpose_for_scores(self.key(hidden_states))
        v = self.transpose_for_scores(self.value(hidden_states))
        attention_scores = torch.matmul(q, k.transpose(-1, -2))
        attention_scores /= math.sqrt(self.attention_head_size)
        attention_scores.masked_fill_(attention_mask, torch.finfo(attention_scores.dtype).min)
        attention_probs = self.dropout(F.softmax(attention_scores, dim=-1))
        if head_mask is not None:
            attention_probs = attention_probs * head_mask
        context = torch.matmul(attention_probs, v).permute(0, 2, 1, 3).contiguous()
        return context.view(context.size()[:-2] + (-1,))


class BertLayer(nn.Module):
    def __init__(self, hidden, heads, intermediate):
        super().__init__()
        self.attention = BertSelfAttention(hidden, heads)
        self.attn_out = nn.Linear(hidden, hidden)
        self.ln1 = nn.LayerNorm(hidden, eps=1e-12)
        self.intermediate = nn.Linear(hidden, intermediate)
        self.output = nn.Linear(intermediate, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=1e-12)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x, mask, head_mask=None):
        attn = self.dropout(self.attn_out(self.attention(x, mask, head_mask)))
        x = self.ln1(attn + x)
        h = self.dropout(self.output(F.gelu(self.intermediate(x))))
        return self.ln2(h + x)


class BertForMaskedLM(nn.Module):
    def __init__(self, vocab=100, hidden=32, heads=4, layers=2):
        super().__init__()
        self.embeddings = BertEmbeddings(vocab, hidden)
        self.layers = nn.ModuleList([BertLayer(hidden, heads, hidden * 4) for _ in range(layers)])
        self.decoder = nn.Linear(hidden, vocab)

    def forward(self, input_ids, attention_mask, token_type_ids, labels):
        ext_mask = (attention_mask[:, None, None, :] == 0)
        head_mask = torch.ones(len(self.layers), 1, self.layers[0].attention.num_attention_heads, 1, 1)
        head_mask[-1, :, 0] = 0.0
        h = self.embeddings(input_ids, token_type_ids)
        for i, layer in enumerate(self.layers):
            h = layer(h, ext_mask, head_mask[i])
        logits = self.decoder(h)
        return F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1), ignore_index=-100)


def mask_tokens(input_ids, mask_token_id=3, prob=0.15):
    labels = input_ids.clone()
    probability_matrix = torch.full(labels.shape, prob)
    masked = torch.bernoulli(probability_matrix).bool() & (input_ids != 0)
    labels[~masked] = -100
    inputs = input_ids.clone()
    inputs[masked] = mask_token_id
    return inputs, labels


torch.manual_seed(0)
model = BertForMaskedLM()
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
ids = torch.randint(4, 100, (4, 16))
ids[:, 12:] = 0
inputs, labels = mask_tokens(ids)
labels[:, 1] = ids[:, 1]
loss = model(inputs, (ids != 0).long(), torch.zeros_like(ids), labels)
loss.backward()
opt.step()
print("mlm loss", loss.item())
