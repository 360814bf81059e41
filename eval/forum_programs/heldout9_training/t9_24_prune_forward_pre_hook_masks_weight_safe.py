# source: magnitude-pruning scripts that re-apply the mask from a hook instead of torch.nn.utils.prune's reparametrisation
# Magnitude pruning with masks re-applied to each Linear weight in place from a forward *pre*-hook, before the weight is used.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_masks(model, sparsity):
    masks = {}
    for name, m in model.named_modules():
        if isinstance(m, nn.Linear):
            k = int(sparsity * m.weight.numel())
            thresh = m.weight.detach().abs().flatten().kthvalue(k).values
            masks[name] = (m.weight.detach().abs() > thresh).float()
    return masks


def attach_mask_hooks(model, masks):
    def reapply_mask(module, inputs):
        with torch.no_grad():
            module.weight.mul_(module.weight_mask)
    for name, m in model.named_modules():
        if name in masks:
            m.register_buffer("weight_mask", masks[name])
            m.register_forward_pre_hook(reapply_mask)


model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4))
attach_mask_hooks(model, make_masks(model, sparsity=0.5))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range(3):
    x, y = torch.randn(32, 16), torch.randint(0, 4, (32,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    density = sum((m.weight != 0).float().mean().item() for m in model if isinstance(m, nn.Linear)) / 3
    print(step, loss.item(), round(density, 3))
