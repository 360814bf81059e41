# source: Switch Transformer top-1 router with expert capacity (fairseq / mesh-tf MoE style) in plain torch
# router probabilities from softmax are zeroed in place for tokens over capacity, after the aux loss was computed
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


class Expert(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.fc1 = nn.Linear(d, hidden)
        self.fc2 = nn.Linear(hidden, d)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class Top1Router(nn.Module):
    def __init__(self, d, num_experts, capacity_factor=1.0):
        super().__init__()
        self.w_gate = nn.Linear(d, num_experts, bias=False)
        self.E = num_experts
        self.capacity_factor = capacity_factor

    def forward(self, x):
        N = x.size(0)
        capacity = int(self.capacity_factor * N / self.E)
        probs = F.softmax(self.w_gate(x), dim=-1)
        expert_idx = probs.argmax(dim=-1)
        onehot = F.one_hot(expert_idx, self.E)
        aux_loss = self.E * (onehot.float().mean(0) * probs.mean(0)).sum()
        position = torch.cumsum(onehot, dim=0) * onehot
        keep = (position <= capacity).all(dim=-1)
        probs.masked_fill_(~keep[:, None], 0.0)  # culprit
        gate, _ = probs.max(dim=-1)
        return gate, expert_idx, keep, aux_loss


class SwitchFFN(nn.Module):
    def __init__(self, d=16, hidden=32, num_experts=4):
        super().__init__()
        self.router = Top1Router(d, num_experts)
        self.experts = nn.ModuleList(Expert(d, hidden) for _ in range(num_experts))

    def forward(self, x):
        shape = x.shape
        x = x.reshape(-1, shape[-1])
        gate, idx, keep, aux = self.router(x)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            sel = (idx == e) & keep
            if sel.any():
                out[sel] = expert(x[sel]) * gate[sel, None]
        return out.view(shape), aux


class SwitchBlock(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, 2, batch_first=True)
        self.ln2 = nn.LayerNorm(d)
        self.moe = SwitchFFN(d)

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        y, aux = self.moe(self.ln2(x))
        return x + y, aux


if __name__ == "__main__":
    block = SwitchBlock()
    head = nn.Linear(16, 5)
    opt = PlainSGD(list(block.parameters()) + list(head.parameters()), lr=0.001)
    x = torch.randn(4, 6, 16)
    y = torch.randint(0, 5, (4,))
    h, aux = block(x)
    loss = F.cross_entropy(head(h.mean(1)), y) + 0.01 * aux
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())
