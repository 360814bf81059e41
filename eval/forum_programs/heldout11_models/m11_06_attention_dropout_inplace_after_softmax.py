# source: HuggingFace BERT/ViT self-attention with attention-probs dropout built from config
# description: attention dropout is configured inplace=True and applied to softmax probs, which softmax saved for backward
import torch
import torch.nn as nn


class Config:
    hidden_size = 16
    num_attention_heads = 2
    attention_probs_dropout_prob = 0.1
    dropout_inplace = True


class SelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.head_dim = config.hidden_size // self.num_heads
        self.query = nn.Linear(config.hidden_size, config.hidden_size)
        self.key = nn.Linear(config.hidden_size, config.hidden_size)
        self.value = nn.Linear(config.hidden_size, config.hidden_size)
        self.dropout = nn.Dropout(config.attention_probs_dropout_prob, inplace=config.dropout_inplace)

    def transpose_for_scores(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.num_heads, self.head_dim).permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask):
        q = self.transpose_for_scores(self.query(hidden_states))
        k = self.transpose_for_scores(self.key(hidden_states))
        v = self.transpose_for_scores(self.value(hidden_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / self.head_dim ** 0.5
        scores = scores + attention_mask
        probs = nn.functional.softmax(scores, dim=-1)
        probs = self.dropout(probs)  # culprit
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).reshape(hidden_states.shape)
        return ctx


if __name__ == "__main__":
    torch.manual_seed(0)
    attn = SelfAttention(Config())
    attn.train()
    h = torch.randn(2, 5, 16)
    mask = torch.zeros(2, 1, 1, 5)
    mask[1, ..., 3:] = -1e4
    loss = attn(h, mask).pow(2).mean()
    loss.backward()
