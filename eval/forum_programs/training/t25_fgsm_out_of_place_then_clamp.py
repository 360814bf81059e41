# intended: safe
# FGSM written out of place; the adversarial batch (a non-leaf) is clamped in place
# and then used for adversarial training.
import torch
import torch.nn as nn
import torch.nn.functional as F


def fgsm(model, images, labels, eps):
    images = images.clone().requires_grad_(True)
    loss = F.cross_entropy(model(images), labels)
    grad, = torch.autograd.grad(loss, images)
    adv = images + eps * grad.sign()
    adv.clamp_(0, 1)
    return adv


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 4 * 4, 32), nn.ReLU(), nn.Linear(32, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    images, labels = torch.rand(8, 3, 4, 4), torch.randint(0, 10, (8,))
    for step in range(2):
        adv = fgsm(model, images, labels, eps=8 / 255)
        loss = 0.5 * F.cross_entropy(model(images), labels) + 0.5 * F.cross_entropy(model(adv), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
