# source: Transformer-XL RelPartialLearnableMultiHeadAttn (kimiyoung/transformer-xl mem_transformer.py): rw_head_q = w_head_q + r_w_bias
# Relative-position attention: content query built out of place, then the raw q is shifted in place by r_r_bias for the position term.
import torch
import torch.nn as nn
import torch.nn.functional as F


def rel_shift(x):
    b, h, q, k = x.shape
    x = F.pad(x, (1, 0))
    return x.view(b, h, k + 1, q)[:, :, 1:].view(b, h, q, k)


class RelMultiHeadAttn(nn.Module):
    def __init__(self, d_model, n_head, d_head):
        super().__init__()
        self.n_head, self.d_head = n_head, d_head
        self.qkv_net = nn.Linear(d_model, 3 * n_head * d_head, bias=False)
        self.r_net = nn.Linear(d_model, n_head * d_head, bias=False)
        self.o_net = nn.Linear(n_head * d_head, d_model, bias=False)
        self.r_w_bias = nn.Parameter(torch.zeros(n_head, d_head))
        self.r_r_bias = nn.Parameter(torch.zeros(n_head, d_head))
        self.layer_norm = nn.LayerNorm(d_model)
        self.scale = d_head ** -0.5

    def forward(self, w, r, mems=None):
        B, L, _ = w.shape
        cat = w if mems is None else torch.cat([mems, w], dim=1)
        heads = self.qkv_net(cat).view(B, cat.size(1), 3, self.n_head, self.d_head)
        q = heads[:, -L:, 0].contiguous()
        k, v = heads[:, :, 1], heads[:, :, 2]
        r_k = self.r_net(r).view(r.size(0), self.n_head, self.d_head)
        rw_q = q + self.r_w_bias
        ac = torch.einsum("bihd,bjhd->bhij", rw_q, k)
        q += self.r_r_bias
        bd = rel_shift(torch.einsum("bihd,jhd->bhij", q, r_k))
        attn = F.softmax((ac + bd) * self.scale, dim=-1)
        out = torch.einsum("bhij,bjhd->bihd", attn, v).reshape(B, L, -1)
        return self.layer_norm(w + self.o_net(out))


def sinusoid_pos_emb(L, d):
    pos = torch.arange(L - 1, -1, -1.0)
    inv_freq = 1 / (10000 ** (torch.arange(0, d, 2.0) / d))
    sinusoid = pos[:, None] * inv_freq[None]
    return torch.cat([sinusoid.sin(), sinusoid.cos()], dim=-1)


torch.manual_seed(0)
layer = RelMultiHeadAttn(d_model=16, n_head=2, d_head=8)
head = nn.Linear(16, 11)
opt = torch.optim.Adam(list(layer.parameters()) + list(head.parameters()), lr=1e-3)
segments = torch.randn(2, 2, 6, 16)
targets = torch.randint(0, 11, (2, 2, 6))
mems = None
for seg, tgt in zip(segments.unbind(1), targets.unbind(1)):
    hidden = layer(seg, sinusoid_pos_emb(6 if mems is None else 12, 16), mems)
    loss = F.cross_entropy(head(hidden).flatten(0, 1), tgt.flatten())
    opt.zero_grad()
    loss.backward()
    opt.step()
    mems = hidden.detach()
print(loss.item())
