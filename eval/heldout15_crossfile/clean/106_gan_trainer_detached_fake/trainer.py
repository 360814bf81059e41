import torch


class GANTrainer:
    def __init__(self, G, D, lr):
        self.G, self.D = G, D
        self.opt_G = torch.optim.Adam(G.parameters(), lr=lr)
        self.opt_D = torch.optim.Adam(D.parameters(), lr=lr)
        self.stats = {"d_loss": 0.0, "g_loss": 0.0, "steps": 0}

    def step_d(self, d_loss):
        self.opt_D.zero_grad()
        d_loss.backward()
        self.opt_D.step()

    def step_g(self, g_loss):
        self.opt_G.zero_grad()
        g_loss.backward()
        self.opt_G.step()

    def train_step(self, real, noise):
        fake = self.G(noise)
        prob_real = self.D(real)
        prob_fake = self.D(fake.detach())
        d_loss = -torch.mean(torch.log(prob_real) + torch.log(1.0 - prob_fake))
        self.step_d(d_loss)
        g_loss = torch.mean(torch.log(1.0 - self.D(fake)))
        self.step_g(g_loss)
        self.stats["d_loss"] += d_loss.item()
        self.stats["g_loss"] += g_loss.item()
        self.stats["steps"] += 1
        return float(d_loss), float(g_loss)
