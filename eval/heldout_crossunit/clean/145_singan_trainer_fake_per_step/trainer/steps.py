def g_step(netG, optimizerG, errG):
    netG.zero_grad()
    errG.backward()
    optimizerG.step()
