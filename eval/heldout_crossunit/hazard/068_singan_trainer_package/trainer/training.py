from .steps import g_step


def train_single_scale(netD, netG, optimizerG, noise, prev, g_steps=3, alpha=10.0):
    fake = netG(noise.detach() + prev)
    for j in range(g_steps):
        output = netD(fake)
        errG = -output.mean()
        rec_loss = alpha * ((netG(noise.detach() + prev) - prev) ** 2).mean()
        g_step(netG, optimizerG, errG + rec_loss)
    return fake
