# source: discuss.pytorch.org threads on hand-written LSTM cells with truncated BPTT (forget-gate bias added to the gate pre-activations, hidden state detached between chunks)
# look-alike: gates[:, H:2H] += bias writes an add output nobody saved; c and h are rebound out of place; (h, c) are detached each chunk
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LSTMCell(nn.Module):
    def __init__(self, input_size, hidden_size, forget_bias=1.0):
        super().__init__()
        self.hidden_size = hidden_size
        self.forget_bias = forget_bias
        self.x2h = nn.Linear(input_size, 4 * hidden_size)
        self.h2h = nn.Linear(hidden_size, 4 * hidden_size, bias=False)

    def forward(self, x, state):
        h, c = state
        H = self.hidden_size
        gates = self.x2h(x) + self.h2h(h)
        gates[:, H : 2 * H] += self.forget_bias
        i, f, g, o = gates.chunk(4, dim=1)
        i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
        c = f * c + i * g
        h = o * torch.tanh(c)
        return h, c


class LanguageModel(nn.Module):
    def __init__(self, vocab=10, emb=6, hidden=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.cell = LSTMCell(emb, hidden)
        self.decoder = nn.Linear(hidden, vocab)

    def forward(self, tokens, state):
        outputs = []
        for t in range(tokens.size(0)):
            state = self.cell(self.emb(tokens[t]), state)
            outputs.append(self.decoder(state[0]))
        return torch.stack(outputs), state


def repackage_hidden(state):
    return tuple(s.detach() for s in state)


model = LanguageModel()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
stream = torch.randint(0, 10, (17, 3))
state = (torch.zeros(3, 8), torch.zeros(3, 8))
for i in range(0, 12, 4):
    state = repackage_hidden(state)
    logits, state = model(stream[i : i + 4], state)
    loss = F.cross_entropy(logits.reshape(-1, 10), stream[i + 1 : i + 5].reshape(-1))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    opt.step()
    print(i, loss.item())
