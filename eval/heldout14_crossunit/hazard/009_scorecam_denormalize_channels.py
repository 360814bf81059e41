# Source: https://github.com/haofanwang/Score-CAM/issues/28 (haofanwang/Score-CAM#28: utils.denormalize does `for channel, mean, std in zip(denormalized[0], means, stds): channel.mul_(std).add_(mean)` -> "Output 0 of UnbindBackward is a view and is being modified inplace")
# Unit kind: cross-function
# The saliency step leaves the input image requiring grad; the visualisation helper
# iterates the image's channels (unbind views) and rescales them in place.
import torch
import torch.nn as nn

torch.manual_seed(0)
MEANS = [0.485, 0.456, 0.406]
STDS = [0.229, 0.224, 0.225]


def saliency(model, image):
    image = image.clone().requires_grad_(True)
    score = model(image).max()
    score.backward(retain_graph=True)
    return image * 1.0, image.grad


def denormalize(tensor, means, stds):
    out = tensor.clone()
    for channel, mean, std in zip(out[0], means, stds):
        channel.mul_(std).add_(mean)  # culprit
    return out


def basic_visualize(image, saliency_map):
    shown = denormalize(image, MEANS, STDS)
    return (shown * saliency_map.abs()).sum()


model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Flatten(), nn.Linear(4 * 4 * 4, 2))
img, grad = saliency(model, torch.randn(1, 3, 6, 6))
print(basic_visualize(img, grad).item())
