# source: HF transformers MixtralSparseMoeBlock.forward: softmax -> topk -> routing_weights /= sum, index_add_ combine, load-balancing loss
# Mixtral sparse MoE block: top-2 routing weights renormalised in place, expert outputs accumulated with index_add_.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MixtralBlockSparseTop2MLP(nn.Module):
    def __init__(self, dim, ffn_dim):
        super().__init__()
        self.w1 = nn.Linear(dim, ffn_dim, bias=False)
        self.w2 = nn.Linear(ffn_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, ffn_dim, bias=False)

    def forward(self, h):
        return self.w2(F.silu(self.w1(h)) * self.w3(h))


class MixtralSparseMoeBlock(nn.Module):
    def __init__(self, dim=16, ffn_dim=32, num_experts=4, top_k=2):
        super().__init__()
        self.num_experts, self.top_k = num_experts, top_k
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList(MixtralBlockSparseTop2MLP(dim, ffn_dim) for _ in range(num_experts))

    def forward(self, hidden_states):
        B, T, D = hidden_states.shape
        hidden_states = hidden_states.view(-1, D)
        router_logits = self.gate(hidden_states)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        final = torch.zeros_like(hidden_states)
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        for e in range(self.num_experts):
            idx, top_x = torch.where(expert_mask[e])
            current = self.experts[e](hidden_states[top_x]) * routing_weights[top_x, idx, None]
            final.index_add_(0, top_x, current)
        return final.view(B, T, D), router_logits


def load_balancing_loss(router_logits, num_experts, top_k):
    probs = F.softmax(router_logits, dim=-1)
    mask = F.one_hot(torch.topk(probs, top_k, dim=-1)[1], num_experts).float()
    return num_experts * (mask.mean(0).sum(0) / top_k * probs.mean(0)).sum()


torch.manual_seed(0)
norm, moe, head = nn.LayerNorm(16), MixtralSparseMoeBlock(), nn.Linear(16, 10)
opt = torch.optim.AdamW([*norm.parameters(), *moe.parameters(), *head.parameters()], lr=1e-3)
x, y = torch.randn(2, 5, 16), torch.randint(0, 10, (2, 5))
for _ in range(2):
    h, logits = moe(norm(x))
    loss = F.cross_entropy(head(x + h).flatten(0, 1), y.flatten()) + 0.01 * load_balancing_loss(logits, 4, 2)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
