# source: WGAN reference code (weight clipping via p.data.clamp_), loop reorganised by a user
# critic weights clamped through p.data after the generator loss is built but before backward: .data bypasses the version counter
import torch
import torch.nn as nn

torch.manual_seed(0)

LATENT = 4
DATA_DIM = 8
CLIP = 0.01
N_CRITIC = 3


def mlp(inp, out, hidden=32):
    return nn.Sequential(nn.Linear(inp, hidden), nn.ReLU(), nn.Linear(hidden, out))


def clip_weights(model, c):
    for p in model.parameters():
        p.data.clamp_(-c, c)


def sample_real(n):
    centers = torch.tensor([[2.0] * DATA_DIM, [-2.0] * DATA_DIM])
    idx = torch.randint(0, 2, (n,))
    return centers[idx] + 0.1 * torch.randn(n, DATA_DIM)


def train(iters=2, batch=16):
    G = mlp(LATENT, DATA_DIM)
    C = mlp(DATA_DIM, 1)
    g_opt = torch.optim.RMSprop(G.parameters(), lr=5e-5)
    c_opt = torch.optim.RMSprop(C.parameters(), lr=5e-5)
    for it in range(iters):
        for _ in range(N_CRITIC):
            c_opt.zero_grad()
            real = sample_real(batch)
            fake = G(torch.randn(batch, LATENT)).detach()
            c_loss = C(fake).mean() - C(real).mean()
            c_loss.backward()
            c_opt.step()

        # generator phase
        g_opt.zero_grad()
        fake = G(torch.randn(batch, LATENT))
        g_loss = -C(fake).mean()
        clip_weights(C, CLIP)
        g_loss.backward()
        g_opt.step()
        print(f"iter {it}: c_loss={c_loss.item():.4f} g_loss={g_loss.item():.4f}")


if __name__ == "__main__":
    train()
