# source: progressive self-knowledge distillation / self-label-smoothing loops that blend the model's own detached predictions into targets
# Soft targets are the current detached softmax probs blended with one-hot labels in place, then used against log(probs).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self, in_dim=16, n_classes=5):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(in_dim, 48), nn.ReLU(), nn.Linear(48, 48), nn.ReLU())
        self.classifier = nn.Linear(48, n_classes)

    def forward(self, x):
        return self.classifier(self.features(x))


def soft_ce(probs, soft_targets, eps=1e-8):
    return -(soft_targets * torch.log(probs + eps)).sum(-1).mean()


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
n_epochs, n_classes = 3, 5
for epoch in range(n_epochs):
    alpha = 0.8 * epoch / max(1, n_epochs - 1)
    x, y = torch.randn(24, 16), torch.randint(0, n_classes, (24,))
    probs = model(x).softmax(-1)
    onehot = F.one_hot(y, n_classes).float()
    soft = probs.detach()
    soft.mul_(alpha).add_(onehot, alpha=1 - alpha)  # culprit
    loss = soft_ce(probs, soft)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, round(alpha, 2), loss.item())
