# source: https://github.com/leftthomas/SRGAN/issues/79 (train.py: g_loss uses fake_out computed before optimizerD.step())
# SRGAN training step: D is updated with retain_graph, then the generator loss reuses the pre-step discriminator output.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, scale=2, ch=8):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, ch, 5, padding=2), nn.PReLU())
        self.res = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.PReLU(),
                                 nn.Conv2d(ch, ch, 3, padding=1), nn.BatchNorm2d(ch))
        self.up = nn.Sequential(nn.Conv2d(ch, ch * scale ** 2, 3, padding=1), nn.PixelShuffle(scale), nn.PReLU(),
                                nn.Conv2d(ch, 3, 5, padding=2))

    def forward(self, x):
        b1 = self.block1(x)
        return (torch.tanh(self.up(b1 + self.res(b1))) + 1) / 2


class Discriminator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.BatchNorm2d(ch), nn.LeakyReLU(0.2),
                                 nn.AdaptiveAvgPool2d(1), nn.Conv2d(ch, 1, 1))

    def forward(self, x):
        return torch.sigmoid(self.net(x).view(x.size(0)))


class GeneratorLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss_network = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1)).eval()
        for param in self.loss_network.parameters():
            param.requires_grad = False
        self.mse_loss = nn.MSELoss()

    def forward(self, out_labels, out_images, target_images):
        adversarial_loss = torch.mean(1 - out_labels)
        perception_loss = self.mse_loss(self.loss_network(out_images), self.loss_network(target_images))
        image_loss = self.mse_loss(out_images, target_images)
        return image_loss + 0.001 * adversarial_loss + 0.006 * perception_loss


def main():
    torch.manual_seed(0)
    netG, netD, generator_criterion = Generator(), Discriminator(), GeneratorLoss()
    optimizerG, optimizerD = torch.optim.Adam(netG.parameters()), torch.optim.Adam(netD.parameters())
    data, target = torch.rand(2, 3, 8, 8), torch.rand(2, 3, 16, 16)
    real_img, z = target, data
    fake_img = netG(z)

    netD.zero_grad()
    real_out = netD(real_img).mean()
    fake_out = netD(fake_img).mean()
    d_loss = 1 - real_out + fake_out
    d_loss.backward(retain_graph=True)
    optimizerD.step()  # culprit

    netG.zero_grad()
    g_loss = generator_criterion(fake_out, fake_img, real_img)
    g_loss.backward()
    optimizerG.step()
    print(d_loss.item(), g_loss.item())


if __name__ == "__main__":
    main()
