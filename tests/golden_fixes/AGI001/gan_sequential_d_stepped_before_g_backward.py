"""The same tutorial GAN in the order that raises (MorvanZhou's 406_GAN as first published): the
discriminator, an ``nn.Sequential``, scores the generator's output for both losses; ``D_loss`` is
backpropagated with ``retain_graph=True`` and ``opt_D.step()`` updates D's weights in place -- and then
``G_loss.backward()`` runs back through D's layers, whose saved weights have moved on."""
import torch
import torch.nn as nn


def run():
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 8))
    D = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())
    opt_D = torch.optim.Adam(D.parameters(), lr=1e-4)
    opt_G = torch.optim.Adam(G.parameters(), lr=1e-4)
    for _ in range(3):
        real = torch.rand(4, 8)
        fake = G(torch.randn(4, 5))
        prob_real = D(real)
        prob_fake = D(fake)
        D_loss = -torch.mean(torch.log(prob_real) + torch.log(1.0 - prob_fake))
        G_loss = torch.mean(torch.log(1.0 - prob_fake))
        opt_D.zero_grad()
        D_loss.backward(retain_graph=True)
        opt_D.step()  # expect: AGI001
        opt_G.zero_grad()
        G_loss.backward()
        opt_G.step()
    return G_loss


if __name__ == "__main__":
    print(run())
