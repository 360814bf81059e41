# source: PyTorch seq2seq tutorial / OpenNMT-style LSTM encoder-decoder with Bahdanau attention
# LSTM translation model with additive attention, masked energies, temperature-scaled logits and a step loop.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, vocab, emb, hid):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=0)
        self.rnn = nn.LSTM(emb, hid, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * hid, hid)

    def forward(self, src):
        out, (h, c) = self.rnn(self.embed(src))
        h0 = torch.tanh(self.bridge(torch.cat([h[0], h[1]], dim=-1)))
        c0 = torch.cat([c[0], c[1]], dim=-1)[:, : h0.size(-1)]
        return out, (h0, c0)


class AdditiveAttention(nn.Module):
    def __init__(self, q_dim, k_dim, attn_dim):
        super().__init__()
        self.W = nn.Linear(q_dim, attn_dim, bias=False)
        self.U = nn.Linear(k_dim, attn_dim)
        self.v = nn.Linear(attn_dim, 1, bias=False)

    def forward(self, query, keys, src_mask):
        energy = self.v(torch.tanh(self.W(query).unsqueeze(1) + self.U(keys))).squeeze(-1)
        energy.masked_fill_(~src_mask, -1e9)
        alpha = F.softmax(energy, dim=-1)
        context = torch.bmm(alpha.unsqueeze(1), keys).squeeze(1)
        return context, alpha


class Decoder(nn.Module):
    def __init__(self, vocab, emb, hid, enc_dim, temperature=1.5):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=0)
        self.attn = AdditiveAttention(hid, enc_dim, hid)
        self.cell = nn.LSTMCell(emb + enc_dim, hid)
        self.out = nn.Linear(hid + enc_dim, vocab)
        self.temperature = temperature

    def step(self, y_prev, state, enc_out, src_mask):
        h, c = state
        context, _ = self.attn(h, enc_out, src_mask)
        h, c = self.cell(torch.cat([self.embed(y_prev), context], dim=-1), (h, c))
        logits = self.out(torch.cat([h, context], dim=-1))
        logits.div_(self.temperature)
        return F.log_softmax(logits, dim=-1), (h, c)

    def forward(self, tgt_in, state, enc_out, src_mask):
        outputs = []
        for t in range(tgt_in.size(1)):
            logp, state = self.step(tgt_in[:, t], state, enc_out, src_mask)
            outputs.append(logp)
        return torch.stack(outputs, dim=1)


def main():
    torch.manual_seed(0)
    enc, dec = Encoder(25, 12, 16), Decoder(27, 12, 16, 32)
    opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-3)
    src = torch.randint(1, 25, (3, 8))
    src[2, 6:] = 0
    tgt = torch.randint(1, 27, (3, 6))
    enc_out, state = enc(src)
    logp = dec(tgt[:, :-1], state, enc_out, src.ne(0))
    loss = F.nll_loss(logp.reshape(-1, 27), tgt[:, 1:].reshape(-1), ignore_index=0)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(list(enc.parameters()) + list(dec.parameters()), 5.0)
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
