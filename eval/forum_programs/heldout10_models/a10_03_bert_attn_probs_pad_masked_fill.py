# source: HuggingFace transformers BertSelfAttention (modified: padding masked after softmax)
# attention probabilities from softmax are zeroed at padded keys with masked_fill_ before dropout and probs @ v
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


class BertSelfAttention(nn.Module):
    def __init__(self, hidden, heads, dropout=0.1):
        super().__init__()
        self.h = heads
        self.d = hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.dropout = nn.Dropout(dropout)

    def split_heads(self, x):
        B, T, _ = x.shape
        return x.view(B, T, self.h, self.d).transpose(1, 2)

    def forward(self, hidden, key_padding):
        q = self.split_heads(self.query(hidden))
        k = self.split_heads(self.key(hidden))
        v = self.split_heads(self.value(hidden))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d)
        probs = F.softmax(scores, dim=-1)
        probs.masked_fill_(key_padding[:, None, None, :], 0.0)  # culprit
        probs = self.dropout(probs)
        ctx = torch.matmul(probs, v).transpose(1, 2).contiguous()
        return ctx.view(hidden.shape)


class BertLayer(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.attn = BertSelfAttention(hidden, heads)
        self.attn_out = nn.Linear(hidden, hidden)
        self.ln1 = nn.LayerNorm(hidden)
        self.inter = nn.Linear(hidden, 4 * hidden)
        self.out = nn.Linear(4 * hidden, hidden)
        self.ln2 = nn.LayerNorm(hidden)

    def forward(self, x, key_padding):
        x = self.ln1(x + self.attn_out(self.attn(x, key_padding)))
        return self.ln2(x + self.out(F.gelu(self.inter(x))))


class TinyBertClassifier(nn.Module):
    def __init__(self, vocab=50, hidden=32, heads=4, layers=2, max_len=16, num_labels=3):
        super().__init__()
        self.word = nn.Embedding(vocab, hidden, padding_idx=0)
        self.pos = nn.Embedding(max_len, hidden)
        self.emb_ln = nn.LayerNorm(hidden)
        self.layers = nn.ModuleList(BertLayer(hidden, heads) for _ in range(layers))
        self.pooler = nn.Linear(hidden, hidden)
        self.cls = nn.Linear(hidden, num_labels)

    def forward(self, ids):
        pad = ids.eq(0)
        pos = torch.arange(ids.size(1))[None]
        x = self.emb_ln(self.word(ids) + self.pos(pos))
        for layer in self.layers:
            x = layer(x, pad)
        return self.cls(torch.tanh(self.pooler(x[:, 0])))


if __name__ == "__main__":
    model = TinyBertClassifier()
    ids = torch.randint(1, 50, (3, 12))
    ids[0, 9:] = 0
    ids[2, 6:] = 0
    labels = torch.tensor([0, 2, 1])
    opt = PlainSGD(model.parameters(), lr=0.001)
    model.train()
    loss = F.cross_entropy(model(ids), labels)
    loss.backward()
    opt.step()
    print("loss", loss.item())
