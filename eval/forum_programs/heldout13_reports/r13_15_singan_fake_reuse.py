# source: https://github.com/tamarott/SinGAN/issues/148 ("Possible one-line solution for Runtime error (variables modified in-place)")
# One SinGAN scale: WGAN-GP critic steps, then generator steps with adversarial + reconstruction loss.
import torch
import torch.nn as nn

torch.manual_seed(0)


def conv_block(in_c, out_c):
    return nn.Sequential(nn.Conv2d(in_c, out_c, 3, 1, 1), nn.BatchNorm2d(out_c), nn.LeakyReLU(0.2))


class WDiscriminator(nn.Module):
    def __init__(self, nc=3, nfc=8):
        super().__init__()
        self.body = nn.Sequential(conv_block(nc, nfc), conv_block(nfc, nfc))
        self.tail = nn.Conv2d(nfc, 1, 3, 1, 1)

    def forward(self, x):
        return self.tail(self.body(x))


class GeneratorConcatSkip2CleanAdd(nn.Module):
    def __init__(self, nc=3, nfc=8):
        super().__init__()
        self.body = nn.Sequential(conv_block(nc, nfc), conv_block(nfc, nfc))
        self.tail = nn.Sequential(nn.Conv2d(nfc, nc, 3, 1, 1), nn.Tanh())

    def forward(self, x, y):
        return self.tail(self.body(x)) + y


def calc_gradient_penalty(netD, real_data, fake_data, LAMBDA=0.1):
    alpha = torch.rand(1, 1).expand(real_data.size())
    interpolates = alpha * real_data + ((1 - alpha) * fake_data)
    interpolates = interpolates.detach().requires_grad_(True)
    disc_interpolates = netD(interpolates)
    gradients = torch.autograd.grad(outputs=disc_interpolates, inputs=interpolates,
                                    grad_outputs=torch.ones_like(disc_interpolates),
                                    create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean() * LAMBDA


def train_single_scale(netD, netG, real, Dsteps=3, Gsteps=3, alpha=10, noise_amp=0.1, niter=2):
    optimizerD = torch.optim.Adam(netD.parameters(), lr=5e-4, betas=(0.5, 0.999))
    optimizerG = torch.optim.Adam(netG.parameters(), lr=5e-4, betas=(0.5, 0.999))
    z_opt = torch.randn_like(real)
    prev = torch.zeros_like(real)
    for epoch in range(niter):
        noise = noise_amp * torch.randn_like(real)
        # (1) Update D network: maximize D(x) + D(G(z))
        for j in range(Dsteps):
            netD.zero_grad()
            errD_real = -netD(real).mean()
            errD_real.backward(retain_graph=True)
            fake = netG(noise.detach(), prev)
            errD_fake = netD(fake.detach()).mean()
            errD_fake.backward(retain_graph=True)
            gradient_penalty = calc_gradient_penalty(netD, real, fake)
            gradient_penalty.backward()
            optimizerD.step()
        # (2) Update G network: maximize D(G(z))
        for j in range(Gsteps):
            netG.zero_grad()
            errG = -netD(fake).mean()
            errG.backward(retain_graph=True)
            Z_opt = noise_amp * z_opt + prev
            rec_loss = alpha * nn.functional.mse_loss(netG(Z_opt.detach(), prev), real)
            rec_loss.backward(retain_graph=True)
            optimizerG.step()  # culprit
        print(f"epoch {epoch}: errD {(errD_real + errD_fake).item():.4f} errG {errG.item():.4f} rec {rec_loss.item():.4f}")


real = torch.rand(1, 3, 12, 12) * 2 - 1
train_single_scale(WDiscriminator(), GeneratorConcatSkip2CleanAdd(), real)
