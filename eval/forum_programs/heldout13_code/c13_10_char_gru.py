# source: char-rnn style GRUCell language model with an explicit time loop (practical-pytorch tutorials)
# Character-level GRU unrolled over time with teacher forcing and a hidden-state tensor per step.
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = "abcdefghijklmnopqrstuvwxyz .,"


def encode(text):
    return torch.tensor([VOCAB.index(c) for c in text], dtype=torch.long)


class CharRNN(nn.Module):
    def __init__(self, vocab_size, emb_dim=16, hidden_size=32, dropout=0.1):
        super().__init__()
        self.hidden_size = hidden_size
        self.embed = nn.Embedding(vocab_size, emb_dim)
        self.cell = nn.GRUCell(emb_dim, hidden_size)
        self.drop = nn.Dropout(dropout)
        self.decoder = nn.Linear(hidden_size, vocab_size)

    def init_hidden(self, batch_size, seq_len):
        return torch.zeros(seq_len + 1, batch_size, self.hidden_size)

    def forward(self, inputs, h0=None):
        # inputs: (seq_len, batch)
        seq_len, batch_size = inputs.shape
        emb = self.drop(self.embed(inputs))
        hiddens = self.init_hidden(batch_size, seq_len)
        if h0 is not None:
            hiddens[0] = h0
        for t in range(seq_len):
            hiddens[t + 1] = self.cell(emb[t], hiddens[t])  # culprit
        outputs = self.decoder(self.drop(hiddens[1:]))
        return outputs, hiddens[-1]


def make_batch(text, seq_len, batch_size):
    data = encode(text)
    starts = torch.randint(0, len(data) - seq_len - 1, (batch_size,))
    x = torch.stack([data[s:s + seq_len] for s in starts], dim=1)
    y = torch.stack([data[s + 1:s + seq_len + 1] for s in starts], dim=1)
    return x, y


text = "the quick brown fox jumps over the lazy dog, again and again. " * 4
torch.manual_seed(0)
model = CharRNN(len(VOCAB))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for it in range(3):
    x, y = make_batch(text, seq_len=12, batch_size=4)
    logits, _ = model(x)
    loss = F.cross_entropy(logits.view(-1, len(VOCAB)), y.view(-1))
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    optimizer.step()
    print(it, loss.item())
