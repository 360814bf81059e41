# source: fairseq TransformerDecoder LM + label_smoothed_cross_entropy (SequenceGenerator's pad masking reused in training)
# log_softmax output lprobs gets lprobs[:, :, pad] = min_logprob written in place before the label-smoothed loss
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

PAD = 1


def sinusoidal_positions(num, dim):
    half = dim // 2
    freqs = torch.exp(torch.arange(half) * -(math.log(10000.0) / (half - 1)))
    args = torch.arange(num)[:, None] * freqs[None]
    return torch.cat([torch.sin(args), torch.cos(args)], dim=1)


class DecoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(dim, heads, dropout=0.1)
        self.ln1 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 2 * dim)
        self.fc2 = nn.Linear(2 * dim, dim)
        self.ln2 = nn.LayerNorm(dim)

    def forward(self, x, causal_mask, pad_mask):
        h = self.ln1(x)
        x = x + self.self_attn(h, h, h, attn_mask=causal_mask, key_padding_mask=pad_mask, need_weights=False)[0]
        return x + self.fc2(F.relu(self.fc1(self.ln2(x))))


class TransformerDecoderLM(nn.Module):
    def __init__(self, vocab=40, dim=32, heads=4, layers=2, max_pos=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.embed_scale = math.sqrt(dim)
        self.register_buffer("positions", sinusoidal_positions(max_pos, dim))
        self.layers = nn.ModuleList(DecoderLayer(dim, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(dim)
        self.output_projection = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens):
        T = tokens.size(1)
        x = self.embed_tokens(tokens)
        x *= self.embed_scale
        x += self.positions[:T]
        x = F.dropout(x, 0.1, self.training).transpose(0, 1)
        causal = torch.ones(T, T, dtype=torch.bool).triu(1)
        pad_mask = tokens.eq(PAD)
        for layer in self.layers:
            x = layer(x, causal, pad_mask)
        return self.output_projection(self.ln_f(x.transpose(0, 1)))

    def get_normalized_probs(self, logits):
        return F.log_softmax(logits, dim=-1)


def label_smoothed_nll_loss(lprobs, target, epsilon, ignore_index):
    nll_loss = -lprobs.gather(dim=-1, index=target[..., None]).squeeze(-1)
    smooth_loss = -lprobs.sum(dim=-1)
    pad = target.eq(ignore_index)
    nll_loss = nll_loss.masked_fill(pad, 0.0).sum()
    smooth_loss = smooth_loss.masked_fill(pad, 0.0).sum()
    eps_i = epsilon / (lprobs.size(-1) - 1)
    return (1.0 - epsilon - eps_i) * nll_loss + eps_i * smooth_loss


def train_step(model, opt, src, min_logprob=-30.0):
    model.train()
    logits = model(src[:, :-1])
    lprobs = model.get_normalized_probs(logits)
    lprobs[:, :, PAD] = min_logprob  # culprit
    loss = label_smoothed_nll_loss(lprobs, src[:, 1:], 0.1, PAD)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    model = TransformerDecoderLM()
    opt = PlainSGD(model.parameters(), lr=0.0005)
    src = torch.randint(2, 40, (3, 10))
    src[1, 7:] = PAD
    print("loss", train_step(model, opt, src))
