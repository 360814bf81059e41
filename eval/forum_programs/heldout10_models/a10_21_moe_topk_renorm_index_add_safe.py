# source: Mixtral / GShard-style top-k MoE layer (HF MixtralSparseMoeBlock shape) in plain torch
# top-k router weights renormalised in place (topk keeps only indices), expert outputs index_add_-ed into a fresh zeros tensor
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


class SwiGLUExpert(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.w1 = nn.Linear(d, hidden, bias=False)
        self.w3 = nn.Linear(d, hidden, bias=False)
        self.w2 = nn.Linear(hidden, d, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class SparseMoE(nn.Module):
    def __init__(self, d=16, hidden=24, num_experts=4, top_k=2):
        super().__init__()
        self.gate = nn.Linear(d, num_experts, bias=False)
        self.experts = nn.ModuleList(SwiGLUExpert(d, hidden) for _ in range(num_experts))
        self.k = top_k
        self.E = num_experts

    def forward(self, hidden):
        B, T, D = hidden.shape
        x = hidden.reshape(-1, D)
        router_logits = self.gate(x)
        probs = F.softmax(router_logits, dim=-1)
        topv, topi = probs.topk(self.k, dim=-1)
        topv /= topv.sum(dim=-1, keepdim=True)
        out = torch.zeros_like(x)
        token_ids = torch.arange(x.size(0)).repeat_interleave(self.k)
        flat_e = topi.reshape(-1)
        flat_w = topv.reshape(-1)
        for e, expert in enumerate(self.experts):
            sel = (flat_e == e).nonzero(as_tuple=True)[0]
            if sel.numel() == 0:
                continue
            tok = token_ids[sel]
            y = expert(x[tok]) * flat_w[sel, None]
            out.index_add_(0, tok, y)
        # load-balancing loss (Switch / Mixtral)
        frac = F.one_hot(topi, self.E).float().sum(1).mean(0)
        aux = self.E * (frac * probs.mean(0)).sum()
        return out.view(B, T, D), aux


class MoEDecoderLayer(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.norm1 = nn.LayerNorm(d)
        self.mix = nn.Linear(d, d)
        self.norm2 = nn.LayerNorm(d)
        self.moe = SparseMoE(d)

    def forward(self, x):
        x = x + self.mix(self.norm1(x))
        y, aux = self.moe(self.norm2(x))
        return x + y, aux


if __name__ == "__main__":
    layers = nn.ModuleList(MoEDecoderLayer() for _ in range(2))
    head = nn.Linear(16, 10)
    opt = PlainSGD(list(layers.parameters()) + list(head.parameters()), lr=0.001)
    x = torch.randn(2, 5, 16)
    tgt = torch.randint(0, 10, (2, 5))
    aux_total = 0.0
    for layer in layers:
        x, aux = layer(x)
        aux_total = aux_total + aux
    loss = F.cross_entropy(head(x).reshape(-1, 10), tgt.reshape(-1)) + 0.02 * aux_total
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())
