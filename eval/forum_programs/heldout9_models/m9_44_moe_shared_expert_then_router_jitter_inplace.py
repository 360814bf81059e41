# source: Qwen2-MoE-style block (shared expert + top-1 routed experts) reusing HF SwitchTransformersTop1Router jitter `hidden_states *= uniform_(...)`
# MoE FFN layer: the shared expert reads the normed tokens first, then the Switch-style router jitters them in place.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Top1Router(nn.Module):
    def __init__(self, dim, num_experts, jitter_noise=0.01):
        super().__init__()
        self.classifier = nn.Linear(dim, num_experts, bias=False)
        self.jitter_noise = jitter_noise

    def forward(self, hidden_states):
        if self.training and self.jitter_noise > 0:
            hidden_states *= torch.empty_like(hidden_states).uniform_(1.0 - self.jitter_noise, 1.0 + self.jitter_noise)  # culprit
        router_logits = self.classifier(hidden_states)
        router_probs = F.softmax(router_logits, dim=-1)
        expert_index = torch.argmax(router_probs, dim=-1)
        return expert_index, router_probs.max(dim=-1).values, router_logits


class SharedExpertMoE(nn.Module):
    def __init__(self, dim=16, hidden=32, num_experts=4):
        super().__init__()
        mlp = lambda: nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))
        self.norm = nn.LayerNorm(dim)
        self.shared_expert = mlp()
        self.shared_gate = nn.Linear(dim, 1, bias=False)
        self.router = Top1Router(dim, num_experts)
        self.experts = nn.ModuleList(mlp() for _ in range(num_experts))

    def forward(self, x):
        h = self.norm(x).view(-1, x.size(-1))
        shared = torch.sigmoid(self.shared_gate(h)) * self.shared_expert(h)
        expert_index, gate, router_logits = self.router(h)
        routed = torch.zeros_like(h)
        for e, expert in enumerate(self.experts):
            sel = expert_index == e
            if sel.any():
                routed[sel] = expert(h[sel]) * gate[sel, None]
        z_loss = torch.logsumexp(router_logits, dim=-1).pow(2).mean()
        return x + (shared + routed).view_as(x), z_loss


torch.manual_seed(0)
layer = SharedExpertMoE()
opt = torch.optim.Adam(layer.parameters(), lr=1e-3)
x, target = torch.randn(2, 6, 16), torch.randn(2, 6, 16)
out, z_loss = layer(x)
loss = F.mse_loss(out, target) + 1e-3 * z_loss
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
