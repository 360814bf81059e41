def g_step(netG, optimizerG, errG):
    netG.zero_grad()
    errG.backward(retain_graph=True)
    optimizerG.step()  # culprit
