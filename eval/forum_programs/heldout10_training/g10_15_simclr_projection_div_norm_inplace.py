# source: SimCLR / NT-Xent re-implementation on toy vectors (user avoided F.normalize "to save memory")
# projection output normalised in place with z.div_(z.norm(dim=1, keepdim=True)) before the similarity matrix
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IN_DIM, FEAT, PROJ = 32, 64, 16


class SimCLR(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(IN_DIM, FEAT), nn.ReLU(), nn.Linear(FEAT, FEAT), nn.ReLU())
        self.projector = nn.Sequential(nn.Linear(FEAT, FEAT), nn.ReLU(), nn.Linear(FEAT, PROJ))

    def forward(self, x):
        z = self.projector(self.encoder(x))
        z.div_(z.norm(dim=1, keepdim=True))  # culprit
        return z


def augment(x):
    noise = 0.1 * torch.randn_like(x)
    mask = (torch.rand_like(x) > 0.1).float()
    return (x + noise) * mask


def nt_xent(z1, z2, tau=0.5):
    n = z1.shape[0]
    z = torch.cat([z1, z2], dim=0)
    sim = z @ z.t() / tau
    sim = sim - 1e9 * torch.eye(2 * n)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


def train(steps=3, batch=16):
    model = SimCLR()
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)
    for step in range(steps):
        x = torch.randn(batch, IN_DIM)
        loss = nt_xent(model(augment(x)), model(augment(x)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
