# Source: https://github.com/daa233/generative-inpainting-pytorch/pull/24 (daa233/generative-inpainting-pytorch PR #24 "fix gradient penalty bug for PyTorch 1.2+", referring to the forum thread "leaf variable was used in an inplace operation")
# Unit kind: cross-function
# In the shape of a WGAN-GP critic step: the penalty helper makes the interpolates a
# leaf that requires grad, then hands them to an augmentation helper that jitters
# brightness in place.
import torch
import torch.nn as nn

torch.manual_seed(0)


def jitter_brightness(images, strength=0.1):
    images.add_((torch.rand(images.size(0), 1, 1, 1) - 0.5) * strength)  # culprit
    return images


def calc_gradient_penalty(netd, real, fake, augment=jitter_brightness):
    alpha = torch.rand(real.size(0), 1, 1, 1)
    interpolates = (alpha * real + (1 - alpha) * fake).detach().requires_grad_(True)
    interpolates = augment(interpolates)
    scores = netd(interpolates)
    grads = torch.autograd.grad(scores.sum(), interpolates, create_graph=True)[0]
    return ((grads.flatten(1).norm(2, dim=1) - 1) ** 2).mean()


netd = nn.Sequential(nn.Conv2d(3, 4, 3), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(4 * 4 * 4, 1))
real, fake = torch.randn(2, 3, 6, 6), torch.randn(2, 3, 6, 6)
penalty = calc_gradient_penalty(netd, real, fake)
penalty.backward()
print("done")
