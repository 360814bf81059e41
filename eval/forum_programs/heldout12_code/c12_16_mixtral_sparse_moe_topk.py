# source: HF transformers MixtralSparseMoeBlock (top-k softmax routing, renormalised weights, index_add_ combine)
# Mixtral-style sparse MoE layer inside a small decoder layer with RMSNorm and SwiGLU experts.
import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        var = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(var + self.eps))


class SwiGLUExpert(nn.Module):
    def __init__(self, dim, ffn_dim):
        super().__init__()
        self.w1 = nn.Linear(dim, ffn_dim, bias=False)
        self.w2 = nn.Linear(ffn_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, ffn_dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class SparseMoeBlock(nn.Module):
    def __init__(self, dim, ffn_dim, num_experts=4, top_k=2):
        super().__init__()
        self.num_experts, self.top_k = num_experts, top_k
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([SwiGLUExpert(dim, ffn_dim) for _ in range(num_experts)])

    def forward(self, hidden_states):
        B, T, D = hidden_states.shape
        hidden_states = hidden_states.view(-1, D)
        router_logits = self.gate(hidden_states)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        final = torch.zeros((B * T, D), dtype=hidden_states.dtype)
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        for expert_idx in range(self.num_experts):
            idx, top_x = torch.where(expert_mask[expert_idx])
            if top_x.numel() == 0:
                continue
            current = self.experts[expert_idx](hidden_states[None, top_x].reshape(-1, D))
            current = current * routing_weights[top_x, idx, None]
            final.index_add_(0, top_x, current)
        return final.reshape(B, T, D), router_logits


def load_balancing_loss(router_logits, num_experts, top_k):
    probs = F.softmax(router_logits, dim=-1)
    _, selected = torch.topk(probs, top_k, dim=-1)
    mask = F.one_hot(selected, num_experts).float()
    tokens_per_expert = mask.mean(0)
    return num_experts * (tokens_per_expert * probs.mean(0).unsqueeze(0)).sum()


class DecoderLayer(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.norm1, self.norm2 = RMSNorm(dim), RMSNorm(dim)
        self.mix = nn.Linear(dim, dim)
        self.moe = SparseMoeBlock(dim, 24)

    def forward(self, x):
        x = x + self.mix(self.norm1(x))
        moe_out, logits = self.moe(self.norm2(x))
        return x + moe_out, logits


def main():
    torch.manual_seed(0)
    layer, lm_head = DecoderLayer(), nn.Linear(16, 20)
    opt = torch.optim.AdamW([*layer.parameters(), *lm_head.parameters()], lr=1e-3)
    x = torch.randn(2, 6, 16)
    targets = torch.randint(0, 20, (2, 6))
    h, logits = layer(x)
    loss = F.cross_entropy(lm_head(h).flatten(0, 1), targets.flatten())
    loss = loss + 0.02 * load_balancing_loss(logits, 4, 2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
