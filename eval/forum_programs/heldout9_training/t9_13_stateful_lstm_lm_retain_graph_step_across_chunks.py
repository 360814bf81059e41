# source: word_language_model-style truncated BPTT where the user replaces repackage_hidden with backward(retain_graph=True)
# Char-level LSTM LM carrying (h, c) across BPTT chunks without detaching; retain_graph lets chunk 2 reach chunk 1's graph after step().
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class CharLM(nn.Module):
    def __init__(self, vocab=20, emb=16, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, tokens, state=None):
        out, state = self.lstm(self.embed(tokens), state)
        return self.head(out), state


def batchify(stream, batch_size):
    n = stream.numel() // batch_size
    return stream[: n * batch_size].view(batch_size, n)


model = CharLM()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
data = batchify(torch.randint(0, 20, (400,)), batch_size=4)
bptt = 10
state = None

for i in range(0, 3 * bptt, bptt):
    x = data[:, i:i + bptt]
    y = data[:, i + 1:i + 1 + bptt]
    logits, state = model(x, state)
    loss = F.cross_entropy(logits.reshape(-1, 20), y.reshape(-1))
    opt.zero_grad()
    loss.backward(retain_graph=True)
    nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    opt.step()  # culprit
    print(i // bptt, loss.item())
