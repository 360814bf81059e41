# intended: AGI002
# Center loss (Wen et al.) with the paper's manual center update: c_j -= alpha * delta_j.
# Centers are an nn.Parameter of the loss module; the update is in the module method.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CenterLoss(nn.Module):
    def __init__(self, n_cls, dim, alpha=0.5):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(n_cls, dim))
        self.alpha = alpha

    def forward(self, feats, labels):
        diff = feats - self.centers[labels]
        loss = 0.5 * diff.pow(2).sum(1).mean()
        delta = -diff.detach()
        self.centers[labels] -= self.alpha * delta  # culprit
        return loss


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(6, 4))
clf = nn.Linear(4, 3)
closs = CenterLoss(3, 4)
opt = torch.optim.SGD([*net.parameters(), *clf.parameters()], lr=0.1)
x, y = torch.randn(9, 6), torch.randint(0, 3, (9,))
f = net(x)
loss = F.cross_entropy(clf(f), y) + 0.1 * closs(f, y)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
