# source: https://github.com/dreamgonfly/GAN-tutorial/issues/1 (D_loss.backward fails; fix is removing inplace=True from LeakyReLU and Dropout)
import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(4, 16),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(16, 8),
            nn.Tanh())

    def forward(self, inputs):
        return self.main(inputs)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(8, 16),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Dropout(inplace=True),  # culprit
            nn.Linear(16, 1),
            nn.Sigmoid())

    def forward(self, inputs):
        return self.main(inputs)


torch.manual_seed(0)
G = Generator()
D = Discriminator()
criterion = nn.BCELoss()
D_optimizer = torch.optim.Adam(D.parameters(), lr=0.0002)
G_optimizer = torch.optim.Adam(G.parameters(), lr=0.0002)

for step in range(2):
    real_data = torch.randn(5, 8)
    target_real = torch.ones(5, 1)
    target_fake = torch.zeros(5, 1)

    D_result_from_real = D(real_data)
    D_loss_real = criterion(D_result_from_real, target_real)
    z = torch.randn(5, 4)
    fake_data = G(z)
    D_result_from_fake = D(fake_data.detach())
    D_loss_fake = criterion(D_result_from_fake, target_fake)
    D_loss = D_loss_real + D_loss_fake
    D.zero_grad()
    D_loss.backward()
    D_optimizer.step()

    z = torch.randn(5, 4)
    fake_data = G(z)
    D_result_from_fake = D(fake_data)
    G_loss = criterion(D_result_from_fake, target_real)
    G.zero_grad()
    G_loss.backward()
    G_optimizer.step()
    print(D_loss.item(), G_loss.item())
