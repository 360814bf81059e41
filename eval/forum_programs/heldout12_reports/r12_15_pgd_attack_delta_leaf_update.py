# source: discuss.pytorch.org thread "PGD / FGSM adversarial perturbation: a leaf Variable that requires grad is being used in an in-place operation" (delta += alpha * delta.grad.sign())
# delta is a leaf created with requires_grad=True; the in-place gradient-ascent step on it runs with grad mode enabled
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 4 * 4, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc(x.flatten(1))


def pgd_attack(model, x, y, eps=0.1, alpha=0.02, steps=3):
    delta = torch.zeros_like(x, requires_grad=True)
    for _ in range(steps):
        loss = F.cross_entropy(model(x + delta), y)
        loss.backward()
        delta += alpha * delta.grad.sign()  # culprit
        delta.data.clamp_(-eps, eps)
        delta.grad.zero_()
    return delta.detach()


def adversarial_training_step(model, opt, x, y):
    model.eval()
    delta = pgd_attack(model, x, y)
    model.train()
    opt.zero_grad()
    loss = F.cross_entropy(model(x + delta), y)
    loss.backward()
    opt.step()
    return loss.item()


model = SmallCNN()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.rand(3, 1, 8, 8)
y = torch.tensor([0, 2, 1])
for epoch in range(2):
    print(epoch, adversarial_training_step(model, opt, x, y))
