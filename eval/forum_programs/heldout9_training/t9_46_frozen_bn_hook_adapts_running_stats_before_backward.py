# source: fine-tuning with frozen (eval-mode) BatchNorm plus an AdaBN-style forward hook that adapts running stats to the new domain
# Eval-mode BN layers get their running mean/var nudged toward each batch from a forward hook while the training graph is pending.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def freeze_bn(model):
    for m in model.modules():
        if isinstance(m, nn.BatchNorm1d):
            m.eval()


def attach_adabn_hooks(model, momentum=0.05):
    def adapt(module, inputs, output):
        x = inputs[0].detach()
        mean, var = x.mean(0), x.var(0, unbiased=True)
        with torch.no_grad():
            for buf, new in ((module.running_mean, mean), (module.running_var, var)):
                buf.lerp_(new, momentum)  # culprit
    for m in model.modules():
        if isinstance(m, nn.BatchNorm1d):
            m.register_forward_hook(adapt)


model = nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(),
                      nn.Linear(32, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 3))
model.train()
freeze_bn(model)
attach_adabn_hooks(model)
opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.01)
for step in range(3):
    x, y = torch.randn(16, 10) * 2 + 1, torch.randint(0, 3, (16,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
