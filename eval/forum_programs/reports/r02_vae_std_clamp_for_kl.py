# intended: AGI001
# like: forum thread "VAE: modified by an inplace operation ... output 0 of ExpBackward0" after clamping std for log()
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, x_dim=20, h_dim=32, z_dim=4):
        super().__init__()
        self.fc1 = nn.Linear(x_dim, h_dim)
        self.fc21 = nn.Linear(h_dim, z_dim)
        self.fc22 = nn.Linear(h_dim, z_dim)
        self.fc3 = nn.Linear(z_dim, h_dim)
        self.fc4 = nn.Linear(h_dim, x_dim)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std, std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x)
        z, std = self.reparameterize(mu, logvar)
        return self.decode(z), mu, std


def loss_function(recon_x, x, mu, std):
    bce = F.binary_cross_entropy(recon_x, x, reduction="sum")
    std.clamp_(min=1e-4)  # culprit
    kld = -0.5 * torch.sum(1 + 2 * torch.log(std) - mu.pow(2) - std.pow(2))
    return bce + kld


def train(model, data, optimizer, epochs=2):
    model.train()
    for epoch in range(epochs):
        total = 0.0
        for x in data.split(8):
            optimizer.zero_grad()
            recon, mu, std = model(x)
            loss = loss_function(recon, x, mu, std)
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(data):.4f}")


def main():
    torch.manual_seed(0)
    data = (torch.rand(32, 20) > 0.5).float()
    model = VAE()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train(model, data, optimizer)


if __name__ == "__main__":
    main()
