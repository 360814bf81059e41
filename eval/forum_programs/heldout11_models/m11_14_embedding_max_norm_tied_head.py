# source: word-level language model with nn.Embedding(max_norm=...) and a tied output projection (AWD-LSTM / fairseq style)
# description: tied decoder uses embedding.weight in a matmul, then a second embedding lookup renormalizes the weight in-place
import torch
import torch.nn as nn
import torch.nn.functional as F


class TiedLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, max_norm=1.0)
        self.rnn = nn.GRU(dim, dim, batch_first=True)

    def decode(self, h):
        return h @ self.embed.weight.t()

    def forward(self, src, tgt_in):
        enc, h = self.rnn(self.embed(src))
        ctx_logits = self.decode(enc[:, -1])
        dec_emb = self.embed(tgt_in)  # culprit
        dec, _ = self.rnn(dec_emb, h)
        return ctx_logits, self.decode(dec)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TiedLM(20, 6)
    src = torch.randint(0, 20, (2, 5))
    tgt = torch.randint(0, 20, (2, 4))
    ctx_logits, logits = model(src, tgt[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 20), tgt[:, 1:].reshape(-1)) + ctx_logits.logsumexp(-1).mean()
    loss.backward()
