# intended: AGI002
# FGSM adversarial example generation: perturb the input in the direction of the gradient sign.
import torch
import torch.nn as nn
import torch.nn.functional as F


def fgsm(model, images, labels, eps):
    images.requires_grad = True
    loss = F.cross_entropy(model(images), labels)
    model.zero_grad()
    loss.backward()
    images += eps * images.grad.sign()  # culprit
    images.clamp_(0, 1)
    return images


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 4 * 4, 32), nn.ReLU(), nn.Linear(32, 10))
    images = torch.rand(8, 3, 4, 4)
    labels = torch.randint(0, 10, (8,))
    adv = fgsm(model, images, labels, eps=8 / 255)
    with torch.no_grad():
        acc = (model(adv).argmax(1) == labels).float().mean()
    print(f"adv acc {acc.item():.2f}")


if __name__ == "__main__":
    main()
