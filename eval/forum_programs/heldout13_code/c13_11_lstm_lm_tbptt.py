# source: pytorch/examples word_language_model (RNNModel, repackage_hidden, manual SGD) with a hand-written LSTM cell
# Word-level LSTM language model trained with truncated BPTT, weight tying and gradient clipping.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMCell(nn.Module):
    def __init__(self, input_size, hidden_size, forget_bias=1.0):
        super().__init__()
        self.ih = nn.Linear(input_size, 4 * hidden_size)
        self.hh = nn.Linear(hidden_size, 4 * hidden_size, bias=False)
        with torch.no_grad():
            self.ih.bias[hidden_size:2 * hidden_size].fill_(forget_bias)

    def forward(self, x, state):
        h, c = state
        gates = self.ih(x) + self.hh(h)
        i, f, g, o = gates.chunk(4, dim=-1)
        i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
        c = c.mul_(f).add_(i * g)
        h = o * torch.tanh(c)
        return h, c


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp=32, nhid=32, dropout=0.2, tie_weights=True):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp, padding_idx=0)
        self.cell = LSTMCell(ninp, nhid)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.nhid = nhid
        self.init_weights()

    def init_weights(self, initrange=0.1):
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        with torch.no_grad():
            self.encoder.weight[0].zero_()

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        outputs = []
        for t in range(emb.size(0)):
            hidden = self.cell(emb[t], hidden)
            outputs.append(hidden[0])
        output = self.drop(torch.stack(outputs))
        return self.decoder(output), hidden

    def init_hidden(self, bsz):
        return (torch.zeros(bsz, self.nhid), torch.zeros(bsz, self.nhid))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


torch.manual_seed(0)
ntokens, lr, bptt, clip = 40, 5.0, 8, 0.25
train_data = batchify(torch.randint(1, ntokens, (200,)), 4)
model = RNNModel(ntokens)
model.train()
hidden = model.init_hidden(4)
for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
    data, targets = get_batch(train_data, i, bptt)
    hidden = repackage_hidden(hidden)
    model.zero_grad()
    output, hidden = model(data, hidden)
    loss = F.cross_entropy(output.view(-1, ntokens), targets)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    for p in model.parameters():
        p.data.add_(p.grad, alpha=-lr)
    if batch % 2 == 0:
        print(batch, round(loss.item(), 4))
