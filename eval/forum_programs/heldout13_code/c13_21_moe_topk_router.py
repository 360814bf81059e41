# source: Switch-Transformer / Mixtral-style sparse MoE layer (router jitter, top-k gating, load-balancing loss)
# Sparse mixture-of-experts feed-forward block with top-2 routing, trained one step on random tokens.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, dim, hidden, act_layer=nn.GELU):
        super().__init__()
        self.w1, self.act, self.w2 = nn.Linear(dim, hidden), act_layer(), nn.Linear(hidden, dim)

    def forward(self, x):
        return self.w2(self.act(self.w1(x)))


class TopKRouter(nn.Module):
    def __init__(self, dim, num_experts, k=2, jitter_noise=0.01):
        super().__init__()
        self.classifier = nn.Linear(dim, num_experts, bias=False)
        self.k, self.jitter_noise, self.num_experts = k, jitter_noise, num_experts

    def forward(self, hidden_states):
        if self.training and self.jitter_noise > 0:
            hidden_states *= torch.empty_like(hidden_states).uniform_(1.0 - self.jitter_noise, 1.0 + self.jitter_noise)
        router_logits = self.classifier(hidden_states)
        router_probs = F.softmax(router_logits, dim=-1)
        topk_weights, topk_idx = router_probs.topk(self.k, dim=-1)
        topk_weights /= topk_weights.sum(dim=-1, keepdim=True)
        return topk_weights, topk_idx, router_probs


def load_balancing_loss(router_probs, topk_idx, num_experts):
    expert_mask = F.one_hot(topk_idx[:, 0], num_experts).float()
    tokens_per_expert = expert_mask.mean(dim=0)
    prob_per_expert = router_probs.mean(dim=0)
    return num_experts * torch.sum(tokens_per_expert * prob_per_expert)


class SparseMoeBlock(nn.Module):
    def __init__(self, dim=32, hidden=64, num_experts=4, k=2):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.router = TopKRouter(dim, num_experts, k)
        self.experts = nn.ModuleList([Expert(dim, hidden) for _ in range(num_experts)])

    def forward(self, x):
        b, n, d = x.shape
        h = self.norm(x).view(-1, d)
        weights, idx, probs = self.router(h)
        out = torch.zeros_like(h)
        for e, expert in enumerate(self.experts):
            token_idx, slot = torch.where(idx == e)
            if token_idx.numel() == 0:
                continue
            y = expert(h[token_idx]) * weights[token_idx, slot, None]
            out.index_add_(0, token_idx, y)
        aux = load_balancing_loss(probs, idx, len(self.experts))
        return x + out.view(b, n, d), aux


class MoEModel(nn.Module):
    def __init__(self, vocab=50, dim=32, depth=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList([SparseMoeBlock(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        x, aux_total = self.emb(tokens), 0.0
        for blk in self.blocks:
            x, aux = blk(x)
            aux_total = aux_total + aux
        return self.head(x), aux_total


torch.manual_seed(0)
model = MoEModel()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(3):
    tokens = torch.randint(0, 50, (4, 8))
    logits, aux = model(tokens)
    loss = F.cross_entropy(logits[:, :-1].reshape(-1, 50), tokens[:, 1:].reshape(-1)) + 0.01 * aux
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4), round(float(aux), 4))
