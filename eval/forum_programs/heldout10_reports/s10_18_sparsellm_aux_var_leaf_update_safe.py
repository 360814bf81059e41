# source: https://github.com/BaiTheBest/SparseLLM/issues/13
# SparseLLM FFN pruning: auxiliary pre-activation s is solved chunk by chunk by manual GD; leaf update wrapped in torch.no_grad()
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def prune_weight_magnitude(W, sparsity):
    k = int(W.numel() * sparsity)
    thresh = W.abs().flatten().kthvalue(k).values
    mask = W.abs() > thresh
    return W * mask, mask


class FFN(nn.Module):
    def __init__(self, d_model=16, d_ff=32):
        super().__init__()
        self.up_proj = nn.Linear(d_model, d_ff, bias=False)
        self.down_proj = nn.Linear(d_ff, d_model, bias=False)

    def forward(self, x):
        return self.down_proj(F.relu(self.up_proj(x)))


@torch.no_grad()
def collect_calibration(ffn, n_tokens=64, d_model=16):
    x = torch.randn(n_tokens, d_model)
    y = ffn(x)
    z = ffn.up_proj(x)
    return x, y, z


def update_s(s, W_down, x, W_up, y, chunks, s_learning_rate=1e-2, alpha=1.0, n_iter=5):
    for chunk in chunks:
        s_batch = s[:, chunk].clone().float().requires_grad_(True)
        for _ in range(n_iter):
            full = s.float().clone()
            full[:, chunk] = s_batch
            pred = F.relu(full) @ W_down.t()
            z_batch = x @ W_up[chunk].t()
            loss_s = F.mse_loss(pred, y) + alpha * F.mse_loss(s_batch, z_batch)
            loss_s.backward()
            with torch.no_grad():
                s_batch -= s_learning_rate * s_batch.grad
            s_batch.grad.zero_()
        s[:, chunk] = s_batch.detach().to(dtype=torch.float16)
    return s


def sparsellm_layer(ffn, sparsity=0.5):
    x, y, z = collect_calibration(ffn)
    W_up = ffn.up_proj.weight.data.clone()
    W_down = ffn.down_proj.weight.data.clone()
    s = z.clone().to(dtype=torch.float16)
    chunks = [torch.arange(i, min(i + 8, s.size(1))) for i in range(0, s.size(1), 8)]
    for outer in range(2):
        W_down, _ = prune_weight_magnitude(W_down, sparsity)
        W_up, _ = prune_weight_magnitude(W_up, sparsity)
        s = update_s(s, W_down, x, W_up, y, chunks)
        err = F.mse_loss(F.relu(s.float()) @ W_down.t(), y).item()
        print(f"outer {outer}: recon err {err:.4f}")
    ffn.up_proj.weight.data.copy_(W_up)
    ffn.down_proj.weight.data.copy_(W_down)
    return ffn


layers = nn.ModuleList([FFN() for _ in range(2)])
for i, layer in enumerate(layers):
    print("layer", i)
    sparsellm_layer(layer)
