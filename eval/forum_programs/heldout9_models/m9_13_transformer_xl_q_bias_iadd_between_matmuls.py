# source: Transformer-XL RelPartialLearnableMultiHeadAttn (kimiyoung/transformer-xl mem_transformer.py), r_w_bias/r_r_bias added to q in place
# Relative-position attention (matmul form): q gets r_w_bias for the content term, then is shifted in place to r_r_bias for the position term.
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

    def forward(self, w, r):
        B, L, _ = w.shape
        q, k, v = self.qkv_net(w).view(B, L, 3, self.n_head, self.d_head).permute(2, 0, 3, 1, 4)
        r_k = self.r_net(r).view(L, self.n_head, self.d_head).permute(1, 2, 0)
        q = q.contiguous()
        q += self.r_w_bias[:, None]
        ac = torch.matmul(q, k.transpose(-2, -1))
        q += (self.r_r_bias - self.r_w_bias)[:, None]  # culprit
        bd = rel_shift(torch.matmul(q, r_k))
        attn = F.softmax((ac + bd) * self.scale, dim=-1)
        out = torch.matmul(attn, v).transpose(1, 2).reshape(B, L, -1)
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
tokens = torch.randn(2, 6, 16)
targets = torch.randint(0, 11, (2, 6))
logits = head(layer(tokens, sinusoid_pos_emb(6, 16)))
loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten())
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
