# source: diffusion denoiser timestep embedding with preallocated out= buffers (diffusers-style MLP denoiser)
# out= buffers are rewritten on every call but only reach the graph through torch.cat / + (which keep no tensor)
import math
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


class BufferedSinusoid(nn.Module):
    def __init__(self, dim, batch, max_period=10000):
        super().__init__()
        half = dim // 2
        self.register_buffer("freqs", torch.exp(-math.log(max_period) * torch.arange(half) / half))
        self.register_buffer("arg_buf", torch.zeros(batch, half), persistent=False)
        self.register_buffer("emb_buf", torch.zeros(batch, dim), persistent=False)

    def forward(self, t):
        torch.mul(t[:, None].float(), self.freqs[None], out=self.arg_buf)
        torch.cat([torch.sin(self.arg_buf), torch.cos(self.arg_buf)], dim=-1, out=self.emb_buf)
        return self.emb_buf


class ConcatDenoiser(nn.Module):
    def __init__(self, data_dim=8, dim=32, batch=16):
        super().__init__()
        self.sinusoid = BufferedSinusoid(dim, batch)
        self.inp = nn.Linear(data_dim + dim, dim)
        self.hidden = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, data_dim)

    def forward(self, x_t, t):
        emb = self.sinusoid(t)
        h = F.silu(self.inp(torch.cat([x_t, emb], dim=-1)))
        h = h + emb
        h = F.silu(self.hidden(h))
        return self.out(h)


def q_sample(x0, t, noise, alphas_cumprod):
    a = alphas_cumprod[t][:, None]
    return a.sqrt() * x0 + (1 - a).sqrt() * noise


def two_timestep_loss(model, x0, alphas_cumprod):
    losses = []
    for _ in range(2):
        t = torch.randint(0, alphas_cumprod.numel(), (x0.size(0),))
        noise = torch.randn_like(x0)
        losses.append(F.mse_loss(model(q_sample(x0, t, noise, alphas_cumprod), t), noise))
    return sum(losses) / 2


if __name__ == "__main__":
    alphas_cumprod = torch.cumprod(1 - torch.linspace(1e-4, 0.02, 200), 0)
    model = ConcatDenoiser()
    opt = PlainSGD(model.parameters(), lr=0.001)
    for step in range(2):
        loss = two_timestep_loss(model, torch.randn(16, 8), alphas_cumprod)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
