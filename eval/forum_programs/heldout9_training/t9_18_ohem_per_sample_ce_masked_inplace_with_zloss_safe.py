# source: online hard example mining (OHEM) loss as written in detection/segmentation repos, plus a logsumexp z-loss term
# Per-sample CE from F.cross_entropy(reduction='none') is masked in place to keep the hardest k samples; z-loss stays out of place.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class OHEMLoss(nn.Module):
    def __init__(self, keep_ratio=0.5, z_coef=1e-4):
        super().__init__()
        self.keep_ratio = keep_ratio
        self.z_coef = z_coef

    def forward(self, logits, targets):
        ce = F.cross_entropy(logits, targets, reduction="none")
        k = max(1, int(self.keep_ratio * ce.numel()))
        with torch.no_grad():
            thresh = ce.topk(k).values[-1]
            keep = (ce >= thresh).float()
        ce.mul_(keep)
        z_loss = self.z_coef * torch.logsumexp(logits, dim=-1).pow(2).mean()
        return ce.sum() / keep.sum() + z_loss


model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 6))
criterion = OHEMLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
for step in range(4):
    x, y = torch.randn(20, 10), torch.randint(0, 6, (20,))
    loss = criterion(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
