# source: DeepSeek-V2/V3 MoEGate (group-limited greedy routing, sigmoid scores, optional e_score_correction_bias) with the group mask applied in place
# MoE gate: without a correction bias the choice scores alias the sigmoid scores, which are then group-masked in place.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MoEGate(nn.Module):
    def __init__(self, dim, n_experts=8, n_group=4, topk_group=2, top_k=2, use_bias=False):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_experts, dim) * 0.02)
        self.bias = nn.Parameter(torch.zeros(n_experts), requires_grad=False) if use_bias else None
        self.n_experts, self.n_group, self.topk_group, self.top_k = n_experts, n_group, topk_group, top_k

    def forward(self, x):
        scores = torch.sigmoid(F.linear(x, self.weight))
        scores_for_choice = scores + self.bias if self.bias is not None else scores
        group_scores = scores_for_choice.view(-1, self.n_group, self.n_experts // self.n_group).topk(2, dim=-1)[0].sum(-1)
        group_idx = group_scores.topk(self.topk_group, dim=-1)[1]
        group_mask = torch.zeros_like(group_scores).scatter_(1, group_idx, 1).bool()
        score_mask = group_mask.repeat_interleave(self.n_experts // self.n_group, dim=1)
        scores_for_choice.masked_fill_(~score_mask, 0.0)  # culprit
        topk_idx = scores_for_choice.topk(self.top_k, dim=-1)[1]
        topk_weight = scores.gather(1, topk_idx)
        return topk_idx, topk_weight / topk_weight.sum(-1, keepdim=True)


class MoE(nn.Module):
    def __init__(self, dim=16, n_experts=8, hidden=32):
        super().__init__()
        self.gate = MoEGate(dim, n_experts)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(dim, hidden), nn.SiLU(), nn.Linear(hidden, dim))
                                     for _ in range(n_experts))

    def forward(self, x):
        shape = x.shape
        x = x.reshape(-1, shape[-1])
        topk_idx, topk_weight = self.gate(x)
        y = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            tok, slot = (topk_idx == e).nonzero(as_tuple=True)
            if tok.numel():
                y = y.index_add(0, tok, expert(x[tok]) * topk_weight[tok, slot, None])
        return y.view(shape)


torch.manual_seed(0)
moe = MoE()
opt = torch.optim.AdamW(moe.parameters(), lr=1e-3)
x, target = torch.randn(2, 6, 16), torch.randn(2, 6, 16)
loss = F.mse_loss(x + moe(x), target)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
