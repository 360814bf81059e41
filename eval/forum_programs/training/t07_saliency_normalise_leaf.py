# intended: AGI002
# Saliency map: image needs grad, then I apply the ImageNet normalisation in place.
import torch
import torch.nn as nn

MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                          nn.Flatten(), nn.Linear(4, 5))
    model.eval()
    img = torch.rand(1, 3, 8, 8, requires_grad=True)
    img.sub_(MEAN).div_(STD)  # culprit
    score = model(img)[0].max()
    score.backward()
    saliency = img.grad.abs().amax(dim=1)
    print(saliency.shape, saliency.sum().item())


if __name__ == "__main__":
    main()
