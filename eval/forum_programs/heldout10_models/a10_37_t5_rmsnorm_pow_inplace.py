# source: HuggingFace T5LayerNorm / LlamaRMSNorm (RMS norm without mean subtraction), "memory-saving" variant
# variance = hidden.pow(2).mean(-1) and then hidden.mul_(rsqrt(variance + eps)) rescales the tensor that pow kept
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


class T5LayerNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states.mul_(torch.rsqrt(variance + self.variance_epsilon))  # culprit
        return self.weight * hidden_states


class T5DenseGatedActDense(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.wi_0 = nn.Linear(d_model, d_ff, bias=False)
        self.wi_1 = nn.Linear(d_model, d_ff, bias=False)
        self.wo = nn.Linear(d_ff, d_model, bias=False)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        return self.wo(self.dropout(F.gelu(self.wi_0(x), approximate="tanh") * self.wi_1(x)))


class T5SelfAttention(nn.Module):
    def __init__(self, d_model, heads):
        super().__init__()
        self.h, self.dk = heads, d_model // heads
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.o = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = (t.view(B, T, self.h, self.dk).transpose(1, 2) for t in self.qkv(x).split(C, -1))
        scores = torch.matmul(q, k.transpose(-1, -2))
        attn = F.softmax(scores, dim=-1)
        return self.o(torch.matmul(attn, v).transpose(1, 2).reshape(B, T, C))


class T5Block(nn.Module):
    def __init__(self, d_model, heads, d_ff):
        super().__init__()
        self.ln_attn = T5LayerNorm(d_model)
        self.attn = T5SelfAttention(d_model, heads)
        self.ln_ff = T5LayerNorm(d_model)
        self.ff = T5DenseGatedActDense(d_model, d_ff)
        self.dropout = nn.Dropout(0.1)

    def forward(self, hidden_states):
        hidden_states = hidden_states + self.dropout(self.attn(self.ln_attn(hidden_states)))
        return hidden_states + self.dropout(self.ff(self.ln_ff(hidden_states)))


class T5EncoderLM(nn.Module):
    def __init__(self, vocab=50, d_model=32, heads=4, d_ff=64, layers=2):
        super().__init__()
        self.shared = nn.Embedding(vocab, d_model)
        self.blocks = nn.ModuleList(T5Block(d_model, heads, d_ff) for _ in range(layers))
        self.final_layer_norm = T5LayerNorm(d_model)
        self.d_model = d_model

    def forward(self, ids):
        h = F.dropout(self.shared(ids), 0.1, self.training)
        for blk in self.blocks:
            h = blk(h)
        h = self.final_layer_norm(h) * (self.d_model ** -0.5)
        return h @ self.shared.weight.t()


if __name__ == "__main__":
    model = T5EncoderLM()
    opt = PlainSGD(model.parameters(), lr=0.001)
    ids = torch.randint(0, 50, (2, 8))
    labels = torch.randint(0, 50, (2, 8))
    logits = model(ids)
    loss = F.cross_entropy(logits.reshape(-1, 50), labels.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())
