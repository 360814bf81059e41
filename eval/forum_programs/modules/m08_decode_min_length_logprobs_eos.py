# intended: AGI001
# self-critical sequence training: greedy decode with a minimum length, EOS banned by writing -inf into log_probs
import torch
import torch.nn as nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self, vocab, d, eos=0, min_len=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.cell = nn.GRUCell(d, d)
        self.out = nn.Linear(d, vocab)
        self.eos = eos
        self.min_len = min_len

    def forward(self, h, bos, max_len=4):
        tok = bos
        seq_logp = torch.zeros(h.size(0))
        tokens = []
        for t in range(max_len):
            h = self.cell(self.emb(tok), h)
            log_probs = F.log_softmax(self.out(h), dim=-1)
            if t < self.min_len:
                log_probs[:, self.eos] = float("-inf")  # culprit
            tok = log_probs.argmax(-1)
            seq_logp = seq_logp + log_probs.gather(1, tok[:, None]).squeeze(1)
            tokens.append(tok)
        return torch.stack(tokens, 1), seq_logp


def main():
    torch.manual_seed(0)
    dec = Decoder(7, 6)
    h0 = torch.randn(3, 6)
    bos = torch.full((3,), 1, dtype=torch.long)
    tokens, logp = dec(h0, bos)
    reward = (tokens == 3).float().sum(1)
    loss = -(reward * logp).mean()
    loss.backward()
    print(tokens.tolist())


if __name__ == "__main__":
    main()
