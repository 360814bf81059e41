# source: https://github.com/leftthomas/SRGAN/issues/79 (fix in the thread: recompute fake_img/fake_out before g_loss)
# SRGAN training loop: after the D step the generator output is re-scored by the updated D before g_loss.backward().
import torch
import torch.nn as nn


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
        self.net = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.LeakyReLU(0.2, inplace=True),
                                 nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.BatchNorm2d(ch),
                                 nn.LeakyReLU(0.2, inplace=True), nn.AdaptiveAvgPool2d(1), nn.Conv2d(ch, 1, 1))

    def forward(self, x):
        return torch.sigmoid(self.net(x).view(x.size(0)))


def generator_criterion(out_labels, out_images, target_images, tv_weight=2e-8):
    adversarial_loss = torch.mean(1 - out_labels)
    image_loss = nn.functional.mse_loss(out_images, target_images)
    tv = (out_images[:, :, 1:, :] - out_images[:, :, :-1, :]).pow(2).mean() + \
         (out_images[:, :, :, 1:] - out_images[:, :, :, :-1]).pow(2).mean()
    return image_loss + 0.001 * adversarial_loss + tv_weight * tv


def main():
    torch.manual_seed(0)
    netG, netD = Generator(), Discriminator()
    optimizerG, optimizerD = torch.optim.Adam(netG.parameters()), torch.optim.Adam(netD.parameters())
    loader = [(torch.rand(2, 3, 8, 8), torch.rand(2, 3, 16, 16)) for _ in range(2)]
    for data, target in loader:
        real_img, z = target, data
        fake_img = netG(z)
        netD.zero_grad()
        real_out = netD(real_img).mean()
        fake_out = netD(fake_img).mean()
        d_loss = 1 - real_out + fake_out
        d_loss.backward(retain_graph=True)
        optimizerD.step()

        netG.zero_grad()
        fake_img = netG(z)
        fake_out = netD(fake_img).mean()
        g_loss = generator_criterion(fake_out, fake_img, real_img)
        g_loss.backward()
        optimizerG.step()
        print(d_loss.item(), g_loss.item())


if __name__ == "__main__":
    main()
