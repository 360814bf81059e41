# source: discuss.pytorch.org threads on truncated BPTT for char-RNN: hidden state carried across chunks without .detach(), "fixed" with retain_graph=True, then fails with "modified by an inplace operation"
# the second chunk's backward reaches the first chunk's graph, whose saved GRUCell weights optimizer.step() already updated in place
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, EMB, HIDDEN, CHUNK = 12, 6, 10, 4


class CharRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, EMB)
        self.cell = nn.GRUCell(EMB, HIDDEN)
        self.out = nn.Linear(HIDDEN, VOCAB)

    def forward(self, tokens, h):
        logits = []
        for t in range(tokens.size(0)):
            h = self.cell(self.emb(tokens[t]), h)
            logits.append(self.out(h))
        return torch.stack(logits), h

    def init_hidden(self, batch):
        return torch.zeros(batch, HIDDEN)


def batchify(stream, batch):
    n = stream.numel() // batch
    return stream[: n * batch].view(batch, n).t().contiguous()


model = CharRNN()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
data = batchify(torch.randint(0, VOCAB, (26,)), batch=2)
hidden = model.init_hidden(2)

for i in range(0, data.size(0) - 1 - CHUNK + 1, CHUNK):
    inp, tgt = data[i : i + CHUNK], data[i + 1 : i + 1 + CHUNK]
    logits, hidden = model(inp, hidden)
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1))
    optimizer.zero_grad()
    loss.backward(retain_graph=True)
    optimizer.step()  # culprit
    print(i, loss.item())
