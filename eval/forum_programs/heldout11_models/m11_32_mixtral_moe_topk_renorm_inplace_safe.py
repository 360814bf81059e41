# source: HuggingFace Mixtral sparse MoE block (top-k router, routing_weights renormalized in-place, index_add_ combine)
# description: in-place renorm hits the topk values (topk saves only indices) and outputs are scattered into a fresh buffer; runs cleanly
import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, dim, hidden, act_layer=nn.SiLU):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.act = act_layer()

    def forward(self, x):
        return self.w2(self.act(self.w1(x)) * self.w3(x))


class SparseMoeBlock(nn.Module):
    def __init__(self, dim=8, hidden=16, num_experts=4, top_k=2):
        super().__init__()
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(dim, hidden) for _ in range(num_experts)])
        self.top_k = top_k
        self.num_experts = num_experts

    def forward(self, hidden_states):
        b, t, d = hidden_states.shape
        hidden_states = hidden_states.view(-1, d)
        router_logits = self.gate(hidden_states)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        final_hidden_states = torch.zeros_like(hidden_states)
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        for expert_idx in range(self.num_experts):
            idx, top_x = torch.where(expert_mask[expert_idx])
            if top_x.numel() == 0:
                continue
            current_state = hidden_states[top_x]
            current_hidden = self.experts[expert_idx](current_state) * routing_weights[top_x, idx, None]
            final_hidden_states.index_add_(0, top_x, current_hidden)
        return final_hidden_states.view(b, t, d), router_logits


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = SparseMoeBlock()
    x = torch.randn(2, 5, 8, requires_grad=True)
    out, logits = moe(x)
    aux = logits.logsumexp(-1).pow(2).mean()
    loss = out.pow(2).mean() + 0.01 * aux
    loss.backward()
