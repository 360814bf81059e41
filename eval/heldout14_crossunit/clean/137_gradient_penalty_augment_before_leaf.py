# Source: https://github.com/daa233/generative-inpainting-pytorch/pull/24 (daa233/generative-inpainting-pytorch PR #24: the gradient-penalty interpolates as a leaf that requires grad)
# Unit kind: cross-function
# Look-alike of hazard/042, with the write before the leaf: the same in-place
# brightness jitter runs on the interpolates before they are detached and marked
# requires_grad.
import torch
import torch.nn as nn

torch.manual_seed(0)


def jitter_brightness(images, strength=0.1):
    images.add_((torch.rand(images.size(0), 1, 1, 1) - 0.5) * strength)
    return images


def calc_gradient_penalty(netd, real, fake, augment=jitter_brightness):
    alpha = torch.rand(real.size(0), 1, 1, 1)
    interpolates = augment(alpha * real + (1 - alpha) * fake)
    interpolates = interpolates.detach().requires_grad_(True)
    scores = netd(interpolates)
    grads = torch.autograd.grad(scores.sum(), interpolates, create_graph=True)[0]
    return ((grads.flatten(1).norm(2, dim=1) - 1) ** 2).mean()


netd = nn.Sequential(nn.Conv2d(3, 4, 3), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(4 * 4 * 4, 1))
real, fake = torch.randn(2, 3, 6, 6), torch.randn(2, 3, 6, 6)
penalty = calc_gradient_penalty(netd, real, fake)
penalty.backward()
print("done")
