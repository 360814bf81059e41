# intended: safe
# Neural style transfer: the image is the optimised leaf tensor. Each step clamps it to
# [0, 1] in place under no_grad before the forward pass, as the PyTorch tutorial does.
import torch
import torch.nn as nn
import torch.nn.functional as F


def gram(f):
    b, c, h, w = f.shape
    f = f.view(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


def main():
    torch.manual_seed(0)
    features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
    for p in features.parameters():
        p.requires_grad_(False)
    content = torch.rand(1, 3, 16, 16)
    style = torch.rand(1, 3, 16, 16)
    with torch.no_grad():
        c_target = features(content)
        s_target = gram(features(style))
    img = content.clone().requires_grad_(True)
    opt = torch.optim.Adam([img], lr=0.05)
    for step in range(5):
        with torch.no_grad():
            img.clamp_(0, 1)
        f = features(img)
        loss = F.mse_loss(f, c_target) + 1e3 * F.mse_loss(gram(f), s_target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 5))
    img.data.clamp_(0, 1)
    print(img.min().item() >= 0)


if __name__ == "__main__":
    main()
