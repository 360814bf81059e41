# source: char-RNN written from scratch (Karpathy min-char-rnn ported to PyTorch modules)
# hidden states stored in a preallocated tensor: hs[t + 1] = tanh(W_xh(x_t) + W_hh(hs[t])) reads the slice it later overwrites
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, HIDDEN, SEQ_LEN = 12, 24, 8


class VanillaRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, HIDDEN)
        self.W_xh = nn.Linear(HIDDEN, HIDDEN)
        self.W_hh = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.out = nn.Linear(HIDDEN, VOCAB)

    def forward(self, tokens, h0):
        T, B = tokens.shape
        x = self.emb(tokens)
        hs = torch.zeros(T + 1, B, HIDDEN)
        hs[0] = h0
        for t in range(T):
            hs[t + 1] = torch.tanh(self.W_xh(x[t]) + self.W_hh(hs[t]))  # culprit
        return self.out(hs[1:]), hs[-1]


def get_batch(data, start, batch):
    chunk = torch.stack([data[start + b: start + b + SEQ_LEN + 1] for b in range(batch)], dim=1)
    return chunk[:-1], chunk[1:]


def train(steps=3, batch=4):
    data = torch.randint(0, VOCAB, (200,))
    model = VanillaRNN()
    opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
    h = torch.zeros(batch, HIDDEN)
    for step in range(steps):
        inputs, targets = get_batch(data, step * SEQ_LEN, batch)
        logits, h = model(inputs, h.detach())
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_value_(model.parameters(), 5.0)
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
