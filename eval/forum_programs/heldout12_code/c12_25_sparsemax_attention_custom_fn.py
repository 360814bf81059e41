# source: entmax / sparsemax (Martins & Astudillo 2016) custom autograd.Function used as an attention normaliser
# Sparse attention layer using a custom Sparsemax Function (saves its output) and zeroing padded query rows.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SparsemaxFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, scores):
        z = scores - scores.max(dim=-1, keepdim=True).values
        zs, _ = torch.sort(z, dim=-1, descending=True)
        rng = torch.arange(1, z.size(-1) + 1, dtype=z.dtype)
        cssv = zs.cumsum(dim=-1) - 1
        support = (rng * zs) > cssv
        k = support.sum(dim=-1, keepdim=True)
        tau = cssv.gather(-1, k - 1) / k.to(z.dtype)
        output = torch.clamp(z - tau, min=0)
        ctx.save_for_backward(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        output, = ctx.saved_tensors
        nonzero = (output > 0).to(grad_output.dtype)
        v_hat = (grad_output * nonzero).sum(-1, keepdim=True) / nonzero.sum(-1, keepdim=True)
        return nonzero * (grad_output - v_hat)


def sparsemax(x):
    return SparsemaxFunction.apply(x)


class SparseAttention(nn.Module):
    def __init__(self, dim, heads=2):
        super().__init__()
        self.heads, self.dk = heads, dim // heads
        self.q_proj, self.k_proj, self.v_proj = (nn.Linear(dim, dim) for _ in range(3))
        self.o_proj = nn.Linear(dim, dim)

    def _shape(self, x):
        B, T, _ = x.shape
        return x.view(B, T, self.heads, self.dk).transpose(1, 2)

    def forward(self, x, pad_mask):
        q, k, v = self._shape(self.q_proj(x)), self._shape(self.k_proj(x)), self._shape(self.v_proj(x))
        scores = q @ k.transpose(-1, -2) / self.dk ** 0.5
        scores = scores.masked_fill(pad_mask[:, None, None, :], -1e4)
        attn = sparsemax(scores)
        attn.masked_fill_(pad_mask[:, None, :, None], 0.0)  # culprit
        out = (attn @ v).transpose(1, 2).reshape(x.shape)
        return self.o_proj(out)


class Tagger(nn.Module):
    def __init__(self, vocab=40, dim=16, n_tags=5):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.attn = SparseAttention(dim)
        self.norm = nn.LayerNorm(dim)
        self.out = nn.Linear(dim, n_tags)

    def forward(self, tokens):
        pad = tokens.eq(0)
        x = self.embed(tokens)
        x = self.norm(x + self.attn(x, pad))
        return self.out(x)


def main():
    torch.manual_seed(0)
    model = Tagger()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    tokens = torch.randint(1, 40, (3, 7))
    tokens[1, 4:] = 0
    tags = torch.randint(0, 5, (3, 7)).masked_fill(tokens.eq(0), -100)
    loss = F.cross_entropy(model(tokens).flatten(0, 1), tags.flatten(), ignore_index=-100)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
