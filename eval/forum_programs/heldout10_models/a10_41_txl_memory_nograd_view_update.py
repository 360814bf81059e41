# source: Transformer-XL segment-level recurrence memory (kimiyoung/transformer-xl MemTransformerLM) in plain torch
# per-layer memory slots are views of one buffer taken under no_grad; after a segment they are refreshed with copy_ of grad-carrying hiddens
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


class MemAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.q = nn.Linear(d, d, bias=False)
        self.kv = nn.Linear(d, 2 * d, bias=False)
        self.o = nn.Linear(d, d, bias=False)

    def forward(self, x, mem):
        T, B, D = x.shape
        cat = torch.cat([mem, x], dim=0)
        M = cat.size(0)
        q = self.q(x).view(T, B, self.h, self.dh)
        k, v = self.kv(cat).view(M, B, 2, self.h, self.dh).unbind(2)
        scores = torch.einsum("ibnd,jbnd->bnij", q, k) / math.sqrt(self.dh)
        causal = torch.ones(T, M, dtype=torch.bool).triu(1 + M - T)
        scores = scores.masked_fill(causal, -1e4)
        out = torch.einsum("bnij,jbnd->ibnd", scores.softmax(-1), v).reshape(T, B, D)
        return self.o(out)


class XLLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.attn = MemAttention(d, heads)
        self.ln1 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(inplace=True), nn.Linear(2 * d, d))
        self.ln2 = nn.LayerNorm(d)

    def forward(self, x, mem):
        x = self.ln1(x + self.attn(x, mem))
        return self.ln2(x + self.ff(x))


class MemTransformerLM(nn.Module):
    def __init__(self, vocab=30, d=32, heads=4, n_layer=2, mem_len=6, batch=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(XLLayer(d, heads) for _ in range(n_layer))
        self.out = nn.Linear(d, vocab)
        self.mem_len = mem_len
        self.register_buffer("mems", torch.zeros(n_layer + 1, mem_len, batch, d), persistent=False)
        self.mem_slots = None

    def init_mems(self):
        with torch.no_grad():
            self.mems.zero_()
            self.mem_slots = [self.mems[i] for i in range(self.mems.size(0))]

    def update_mems(self, hids):
        for i, h in enumerate(hids):
            new_mem = torch.cat([self.mem_slots[i], h], dim=0)[-self.mem_len:]
            self.mem_slots[i].copy_(new_mem)  # culprit

    def forward(self, ids):
        x = self.embed(ids) * math.sqrt(self.embed.embedding_dim)
        hids = [x]
        for i, layer in enumerate(self.layers):
            x = layer(x, self.mem_slots[i])
            hids.append(x)
        logits = self.out(x)
        self.update_mems(hids[:-1] + [x])
        return logits


if __name__ == "__main__":
    model = MemTransformerLM()
    opt = PlainSGD(model.parameters(), lr=0.00025)
    stream = torch.randint(0, 30, (13, 2))
    model.init_mems()
    model.train()
    for seg in range(2):
        inp = stream[seg * 6 : seg * 6 + 6]
        tgt = stream[seg * 6 + 1 : seg * 6 + 7]
        logits = model(inp)
        loss = F.cross_entropy(logits.reshape(-1, 30), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(seg, loss.item())
