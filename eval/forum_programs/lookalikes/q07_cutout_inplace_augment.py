# intended: safe
# Training-time augmentation written in place on the input batch (random flip, brightness
# jitter, cutout) before it reaches the conv net; the batch never requires grad.
import torch
import torch.nn as nn
import torch.nn.functional as F


def augment_(imgs, holes=1, size=3):
    n, _, h, w = imgs.shape
    flip = torch.rand(n) < 0.5
    imgs[flip] = imgs[flip].flip(-1)
    imgs.mul_(1 + 0.1 * torch.randn(n, 1, 1, 1))
    for i in range(n):
        for _ in range(holes):
            cy, cx = torch.randint(0, h, (1,)).item(), torch.randint(0, w, (1,)).item()
            imgs[i, :, max(cy - size, 0): cy + size, max(cx - size, 0): cx + size] = 0.0
    imgs.clamp_(0, 1)
    return imgs


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.relu(self.c2(x))
        return self.fc(x.mean((2, 3)))


def main():
    torch.manual_seed(0)
    model = SmallCNN()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(3):
        imgs = torch.rand(8, 3, 16, 16)
        labels = torch.randint(0, 10, (8,))
        augment_(imgs)
        imgs.sub_(0.5).div_(0.25)
        loss = F.cross_entropy(model(imgs), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
