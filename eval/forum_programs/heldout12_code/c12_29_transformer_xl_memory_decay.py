# source: Transformer-XL (kimiyoung/transformer-xl MemTransformerLM) segment recurrence with cached memories
# Segment-recurrent LM that caches the last hidden states per layer as memory and decays memories at the next segment.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MemAttnLayer(nn.Module):
    def __init__(self, d_model, n_head, dropout=0.1):
        super().__init__()
        self.n_head, self.d_head = n_head, d_model // n_head
        self.qkv_net = nn.Linear(d_model, 3 * d_model, bias=False)
        self.o_net = nn.Linear(d_model, d_model, bias=False)
        self.r_w_bias = nn.Parameter(torch.zeros(n_head, self.d_head))
        self.drop = nn.Dropout(dropout)
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(inplace=True), nn.Linear(2 * d_model, d_model))

    def forward(self, h, mem):
        B, qlen, D = h.shape
        mlen = mem.size(1)
        cat = torch.cat([mem, h], dim=1) if mlen > 0 else h
        qkv = self.qkv_net(cat).view(B, mlen + qlen, 3, self.n_head, self.d_head)
        q, k, v = qkv[:, -qlen:, 0], qkv[:, :, 1], qkv[:, :, 2]
        score = torch.einsum("bihd,bjhd->bhij", q + self.r_w_bias, k) / self.d_head ** 0.5
        causal = torch.triu(torch.ones(qlen, mlen + qlen, dtype=torch.bool), diagonal=1 + mlen)
        prob = self.drop(F.softmax(score.masked_fill(causal, float("-inf")), dim=-1))
        attn_out = torch.einsum("bhij,bjhd->bihd", prob, v).reshape(B, qlen, D)
        h = self.norm1(h + self.drop(self.o_net(attn_out)))
        return self.norm2(h + self.drop(self.ff(h)))


class MemTransformerLM(nn.Module):
    def __init__(self, vocab=32, d_model=16, n_head=2, n_layer=2, mem_len=4, mem_decay=0.9):
        super().__init__()
        self.mem_len, self.mem_decay, self.d_model = mem_len, mem_decay, d_model
        self.word_emb = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList([MemAttnLayer(d_model, n_head) for _ in range(n_layer)])
        self.out = nn.Linear(d_model, vocab)

    def init_mems(self, bsz):
        return [torch.zeros(bsz, 0, self.d_model) for _ in self.layers]

    def _update_mems(self, hids):
        with torch.no_grad():
            return [h[:, -self.mem_len:] for h in hids]

    def forward(self, tokens, mems):
        for mem in mems:
            mem.mul_(self.mem_decay)  # culprit
        h = self.word_emb(tokens)
        hids = []
        for layer, mem in zip(self.layers, mems):
            hids.append(h)
            h = layer(h, mem)
        return self.out(h), self._update_mems(hids)


def main():
    torch.manual_seed(0)
    model = MemTransformerLM()
    opt = torch.optim.Adam(model.parameters(), lr=2.5e-4)
    stream = torch.randint(0, 32, (2, 13))
    mems = model.init_mems(2)
    for seg in range(2):
        inp, tgt = stream[:, seg * 6: seg * 6 + 6], stream[:, seg * 6 + 1: seg * 6 + 7]
        logits, mems = model(inp, mems)
        loss = F.cross_entropy(logits.reshape(-1, 32), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"segment {seg} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
