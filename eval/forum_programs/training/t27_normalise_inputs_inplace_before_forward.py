# intended: safe
# Data pipeline normalises and augments batches in place before the forward pass;
# after backward the batch buffer is reused (overwritten in place) for the next batch.
import torch
from torch import nn

MEAN = torch.tensor([0.5, 0.5, 0.5]).view(1, 3, 1, 1)
STD = torch.tensor([0.25, 0.25, 0.25]).view(1, 3, 1, 1)


def augment_(batch):
    flip = torch.rand(batch.size(0)) < 0.5
    batch[flip] = batch[flip].flip(-1)
    batch.sub_(MEAN).div_(STD)
    return batch


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(inplace=True),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    buf = torch.empty(8, 3, 6, 6)
    for step in range(3):
        buf.copy_(torch.rand(8, 3, 6, 6))
        x = augment_(buf)
        y = torch.randint(0, 2, (8,))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
