# source: Switch Transformer top-1 router with expert capacity (mesh-tensorflow / HF SwitchTransformersTop1Router)
# Top-1 mixture-of-experts FFN with capacity-based token dropping and a load-balancing auxiliary loss.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Top1Router(nn.Module):
    def __init__(self, dim, num_experts, capacity_factor=1.0):
        super().__init__()
        self.classifier = nn.Linear(dim, num_experts, bias=False)
        self.num_experts = num_experts
        self.capacity_factor = capacity_factor

    def forward(self, x):
        num_tokens = x.shape[0]
        capacity = int(self.capacity_factor * num_tokens / self.num_experts)
        router_probs = F.softmax(self.classifier(x), dim=-1)
        expert_index = router_probs.argmax(dim=-1)
        expert_mask = F.one_hot(expert_index, self.num_experts).to(router_probs.dtype)
        aux_loss = self.num_experts * (expert_mask.mean(0) * router_probs.mean(0)).sum()
        position_in_expert = torch.cumsum(expert_mask, dim=0) * expert_mask
        keep = expert_mask * (position_in_expert <= capacity).to(expert_mask.dtype)
        router_probs *= keep  # culprit
        gate = router_probs.sum(dim=-1)
        return keep, gate, aux_loss


class ExpertFFN(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.wi = nn.Linear(dim, hidden)
        self.wo = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.wo(F.relu(self.wi(x)))


class SwitchFFN(nn.Module):
    def __init__(self, dim, hidden, num_experts=4):
        super().__init__()
        self.router = Top1Router(dim, num_experts, capacity_factor=1.25)
        self.experts = nn.ModuleList([ExpertFFN(dim, hidden) for _ in range(num_experts)])

    def forward(self, hidden_states):
        B, T, D = hidden_states.shape
        x = hidden_states.reshape(-1, D)
        keep, gate, aux_loss = self.router(x)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            idx = keep[:, e].nonzero(as_tuple=True)[0]
            if idx.numel() == 0:
                continue
            out.index_add_(0, idx, expert(x[idx]) * gate[idx, None])
        return out.view(B, T, D), aux_loss


class SwitchBlock(nn.Module):
    def __init__(self, dim=16, heads=2):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.moe = SwitchFFN(dim, 32)

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        moe_out, aux = self.moe(self.ln2(x))
        return x + moe_out, aux


def main():
    torch.manual_seed(0)
    embed, block, head = nn.Embedding(30, 16), SwitchBlock(), nn.Linear(16, 30)
    params = [*embed.parameters(), *block.parameters(), *head.parameters()]
    opt = torch.optim.Adam(params, lr=1e-3)
    tokens = torch.randint(0, 30, (2, 8))
    h, aux = block(embed(tokens))
    loss = F.cross_entropy(head(h).flatten(0, 1), tokens.flatten()) + 0.01 * aux
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
