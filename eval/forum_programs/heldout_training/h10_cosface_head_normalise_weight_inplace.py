# intended: AGI002
# CosFace head. I normalise the class weights in place inside forward so that
# the stored weights stay on the unit sphere.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CosFace(nn.Module):
    def __init__(self, dim, n_cls, s=16.0, m=0.2):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_cls, dim))
        self.s, self.m = s, m

    def forward(self, feats, labels):
        self.weight.div_(self.weight.norm(dim=1, keepdim=True))  # culprit
        cos = F.normalize(feats, dim=1) @ self.weight.t()
        onehot = F.one_hot(labels, cos.size(1)).float()
        return self.s * (cos - self.m * onehot)


torch.manual_seed(0)
backbone = nn.Linear(10, 6)
head = CosFace(6, 4)
opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.1)
x, y = torch.randn(8, 10), torch.randint(0, 4, (8,))
loss = F.cross_entropy(head(backbone(x), y), y)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
