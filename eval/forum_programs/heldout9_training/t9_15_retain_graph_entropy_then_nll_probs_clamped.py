# source: semi-supervised entropy-minimisation training with per-loss backward calls to log each loss's gradient norm
# One softmax forward, entropy loss backward(retain_graph=True), then probs clamped in place for log() before the NLL backward.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def grad_norm(model):
    norms = [p.grad.norm() for p in model.parameters() if p.grad is not None]
    return torch.stack(norms).norm().item()


class Classifier(nn.Module):
    def __init__(self, in_dim=10, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.GELU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return F.softmax(self.net(x), dim=-1)


model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
ent_weight = 0.1
eps = 1e-6

for step in range(3):
    x, y = torch.randn(12, 10), torch.randint(0, 4, (12,))
    probs = model(x)
    opt.zero_grad()
    ent = -(probs * torch.log(probs + 1e-8)).sum(-1).mean()
    (ent_weight * ent).backward(retain_graph=True)
    g_ent = grad_norm(model)

    probs.clamp_(min=eps)  # culprit
    nll = F.nll_loss(torch.log(probs), y)
    nll.backward()
    g_total = grad_norm(model)
    opt.step()
    print(step, ent.item(), nll.item(), g_ent, g_total)
