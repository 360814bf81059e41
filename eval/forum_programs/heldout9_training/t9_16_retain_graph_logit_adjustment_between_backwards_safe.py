# source: logit-adjusted loss (Menon et al. 2021) trained next to plain CE; two backward calls to log both gradient norms
# Plain CE backward(retain_graph=True), then the Linear logits get the log-prior added in place for the balanced CE backward.
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
        self.body = nn.Sequential(nn.Linear(in_dim, 32), nn.GELU())
        self.fc = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.fc(self.body(x))


class_counts = torch.tensor([400.0, 120.0, 40.0, 10.0])
log_prior = torch.log(class_counts / class_counts.sum())
tau = 1.0
model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(3):
    x, y = torch.randn(12, 10), torch.randint(0, 4, (12,))
    logits = model(x)
    opt.zero_grad()
    ce = F.cross_entropy(logits, y)
    (0.5 * ce).backward(retain_graph=True)
    g_ce = grad_norm(model)

    logits.add_(tau * log_prior)
    balanced = F.cross_entropy(logits, y)
    (0.5 * balanced).backward()
    g_total = grad_norm(model)
    opt.step()
    print(step, ce.item(), balanced.item(), g_ce, g_total)
