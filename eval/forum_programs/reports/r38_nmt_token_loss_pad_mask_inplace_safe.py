# intended: safe
# like: seq2seq NMT training, per-token loss from cross_entropy(reduction="none") then loss[pad] = 0 in place before averaging
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab=16, tgt_vocab=18, emb=12, hid=16):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, emb, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(tgt_vocab, emb, padding_idx=PAD)
        self.encoder = nn.LSTM(emb, hid, batch_first=True)
        self.decoder = nn.LSTM(emb, hid, batch_first=True)
        self.attn = nn.Linear(hid, hid, bias=False)
        self.out = nn.Linear(2 * hid, tgt_vocab)

    def forward(self, src, tgt_in):
        enc_out, state = self.encoder(self.src_emb(src))
        dec_out, _ = self.decoder(self.tgt_emb(tgt_in), state)
        scores = torch.bmm(self.attn(dec_out), enc_out.transpose(1, 2))
        scores = scores.masked_fill((src == PAD)[:, None, :], -1e9)
        ctx = torch.bmm(F.softmax(scores, dim=-1), enc_out)
        return self.out(torch.tanh(torch.cat([dec_out, ctx], -1)))


def masked_nll(logits, tgt_out):
    B, T, V = logits.shape
    loss = F.cross_entropy(logits.reshape(-1, V), tgt_out.reshape(-1), reduction="none").view(B, T)
    pad = tgt_out == PAD
    loss[pad] = 0.0
    return loss.sum() / (~pad).sum()


def main():
    torch.manual_seed(0)
    model = Seq2Seq()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    src = torch.randint(1, 16, (4, 7))
    src[2, 5:] = PAD
    tgt = torch.randint(1, 18, (4, 6))
    tgt[1, 4:] = PAD
    for epoch in range(2):
        logits = model(src, tgt[:, :-1])
        loss = masked_nll(logits, tgt[:, 1:])
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
