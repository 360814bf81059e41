# source: HF transformers SwitchTransformersLayerFF / SwitchTransformersTop1Router: in-place multiplicative jitter on the T5 layer-norm output
# Switch Transformer sparse FFN: the router jitters the RMS-normed tokens in place before the router and experts read them.
import torch
import torch.nn as nn
import torch.nn.functional as F


class T5LayerNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(variance + self.eps))


class Top1Router(nn.Module):
    def __init__(self, dim, num_experts, jitter_noise=0.01):
        super().__init__()
        self.classifier = nn.Linear(dim, num_experts, bias=False)
        self.jitter_noise = jitter_noise

    def forward(self, hidden_states):
        if self.training and self.jitter_noise > 0:
            hidden_states *= torch.empty_like(hidden_states).uniform_(1.0 - self.jitter_noise, 1.0 + self.jitter_noise)
        router_logits = self.classifier(hidden_states)
        router_probs = F.softmax(router_logits, dim=-1)
        expert_index = torch.argmax(router_probs, dim=-1)
        return expert_index, router_probs.max(dim=-1).values, router_logits


class SwitchLayerFF(nn.Module):
    def __init__(self, dim=16, hidden=32, num_experts=4):
        super().__init__()
        self.layer_norm = T5LayerNorm(dim)
        self.router = Top1Router(dim, num_experts)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(dim, hidden, bias=False), nn.ReLU(),
                                                   nn.Linear(hidden, dim, bias=False)) for _ in range(num_experts))

    def forward(self, x):
        h = self.layer_norm(x)
        expert_index, probs, router_logits = self.router(h)
        next_states = h.clone()
        for e, expert in enumerate(self.experts):
            sel = expert_index == e
            if sel.any():
                next_states[sel] = expert(h[sel])
        z_loss = torch.logsumexp(router_logits, dim=-1).pow(2).mean()
        return x + probs.unsqueeze(-1) * next_states, z_loss


torch.manual_seed(0)
layers = nn.ModuleList([SwitchLayerFF(), SwitchLayerFF()])
opt = torch.optim.Adam(layers.parameters(), lr=1e-3)
x, target = torch.randn(2, 6, 16), torch.randn(2, 6, 16)
for _ in range(2):
    h, aux = x, 0.0
    for layer in layers:
        h, z = layer(h)
        aux = aux + z
    loss = F.mse_loss(h, target) + 1e-3 * aux
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
