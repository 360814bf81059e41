# Source: https://github.com/haofanwang/Score-CAM/issues/28 (haofanwang/Score-CAM#28: utils.denormalize's `channel.mul_(std).add_(mean)` loop)
# Unit kind: cross-function
# Look-alike of hazard/009: the same in-place per-channel denormalise helper, but the
# visualisation function that calls it runs entirely under torch.no_grad(), so the
# channel views carry no autograd history.
import torch
import torch.nn as nn

torch.manual_seed(0)
MEANS = [0.485, 0.456, 0.406]
STDS = [0.229, 0.224, 0.225]


def saliency(model, image):
    image = image.clone().requires_grad_(True)
    score = model(image).max()
    score.backward()
    return image, image.grad


def denormalize(tensor, means, stds):
    out = tensor.clone()
    for channel, mean, std in zip(out[0], means, stds):
        channel.mul_(std).add_(mean)
    return out


@torch.no_grad()
def basic_visualize(image, saliency_map):
    shown = denormalize(image, MEANS, STDS)
    return (shown * saliency_map.abs()).sum()


model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Flatten(), nn.Linear(4 * 4 * 4, 2))
img, grad = saliency(model, torch.randn(1, 3, 6, 6))
print(basic_visualize(img, grad).item())
