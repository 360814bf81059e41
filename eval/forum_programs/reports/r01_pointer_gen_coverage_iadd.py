# intended: AGI001
# like: GitHub issue on a pointer-generator port, coverage vector updated with += after the coverage loss read it
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, vocab, hid):
        super().__init__()
        self.emb = nn.Embedding(vocab, hid)
        self.rnn = nn.GRU(hid, hid, batch_first=True)

    def forward(self, src):
        out, h = self.rnn(self.emb(src))
        return out, h.squeeze(0)


class Attention(nn.Module):
    def __init__(self, hid):
        super().__init__()
        self.W_h = nn.Linear(hid, hid, bias=False)
        self.W_s = nn.Linear(hid, hid)
        self.w_c = nn.Linear(1, hid, bias=False)
        self.v = nn.Linear(hid, 1, bias=False)

    def forward(self, s_t, enc_out, enc_mask, coverage):
        feat = self.W_h(enc_out) + self.W_s(s_t).unsqueeze(1) + self.w_c(coverage.unsqueeze(2))
        scores = self.v(torch.tanh(feat)).squeeze(2)
        scores = scores.masked_fill(enc_mask == 0, -1e9)
        attn_dist = F.softmax(scores, dim=1)
        context = torch.bmm(attn_dist.unsqueeze(1), enc_out).squeeze(1)
        return context, attn_dist


class Decoder(nn.Module):
    def __init__(self, vocab, hid):
        super().__init__()
        self.emb = nn.Embedding(vocab, hid)
        self.cell = nn.GRUCell(2 * hid, hid)
        self.attention = Attention(hid)
        self.out = nn.Linear(2 * hid, vocab)

    def forward(self, y_prev, s, ctx, enc_out, enc_mask, coverage):
        s = self.cell(torch.cat([self.emb(y_prev), ctx], 1), s)
        ctx, attn_dist = self.attention(s, enc_out, enc_mask, coverage)
        logp = F.log_softmax(self.out(torch.cat([s, ctx], 1)), dim=1)
        return logp, s, ctx, attn_dist


def train_one_batch(enc, dec, src, tgt, enc_mask, optimizer, cov_loss_wt=1.0):
    optimizer.zero_grad()
    enc_out, s = enc(src)
    B, S, H = enc_out.shape
    ctx = torch.zeros(B, H)
    coverage = torch.zeros(B, S)
    y_prev = torch.zeros(B, dtype=torch.long)
    step_losses = []
    for t in range(tgt.size(1)):
        logp, s, ctx, attn_dist = dec(y_prev, s, ctx, enc_out, enc_mask, coverage)
        nll = F.nll_loss(logp, tgt[:, t])
        step_coverage_loss = torch.sum(torch.min(attn_dist, coverage), 1).mean()
        step_losses.append(nll + cov_loss_wt * step_coverage_loss)
        coverage += attn_dist  # culprit
        y_prev = tgt[:, t]
    loss = torch.stack(step_losses).mean()
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    vocab, hid = 20, 16
    enc, dec = Encoder(vocab, hid), Decoder(vocab, hid)
    optimizer = torch.optim.Adagrad(list(enc.parameters()) + list(dec.parameters()), lr=0.15)
    src = torch.randint(1, vocab, (4, 7))
    tgt = torch.randint(1, vocab, (4, 5))
    enc_mask = torch.ones(4, 7)
    enc_mask[0, 5:] = 0
    for it in range(2):
        print(it, train_one_batch(enc, dec, src, tgt, enc_mask, optimizer))


if __name__ == "__main__":
    main()
